"use client";

import { LogOutIcon } from "lucide-react";
import { signOut } from "next-auth/react";
import { Button } from "./primitives/button";

/** Ends the session and returns to the sign-in page (icon only on phones, with its name kept for screen readers). */
export function SignOutButton() {
  return (
    <Button variant="secondary" size="sm" onClick={() => signOut({ callbackUrl: "/signin" })} aria-label="Sign out">
      <LogOutIcon aria-hidden />
      <span className="hidden sm:inline">Sign out</span>
    </Button>
  );
}
