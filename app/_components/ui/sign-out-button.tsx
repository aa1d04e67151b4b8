"use client";

import { signOut } from "next-auth/react";

/** Ends the session and returns to the sign-in page. */
export function SignOutButton() {
  return (
    <button className="btn-secondary" type="button" onClick={() => signOut({ callbackUrl: "/signin" })}>
      Sign out
    </button>
  );
}
