"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { ACCOUNT_DISABLED_MESSAGE, credentialsSignIn, signInFailureMessage } from "./credentials-sign-in";
import { Button } from "./primitives/button";
import { Input } from "./primitives/input";
import { FieldError, Label } from "./primitives/label";

/**
 * Email + password sign-in through next-auth's Credentials provider. `fresh`: the instance has no
 * account yet; `disabled`: the page was sent here because the account's session ended when it was disabled.
 */
export function SignInForm({ fresh = false, disabled = false }: { fresh?: boolean; disabled?: boolean }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(disabled ? ACCOUNT_DISABLED_MESSAGE : null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    const outcome = await credentialsSignIn(String(form.get("email")), String(form.get("password")));
    setBusy(false);
    if (outcome.ok) router.replace("/chat");
    else setError(signInFailureMessage(outcome));
  }

  // method="post": a submit before hydration must never put the password in the URL.
  return (
    <form method="post" onSubmit={onSubmit} className="space-y-4" data-testid="signin-form">
      <h2 className="text-lg font-medium">Sign in</h2>
      {fresh && (
        <p className="rounded bg-amber-50 p-2 text-sm text-amber-900" data-testid="first-run-note">
          No account yet — the first account becomes the administrator; find the setup code in the server log.{" "}
          <Link className="underline" href="/register">
            Create it
          </Link>
        </p>
      )}
      <div>
        <Label htmlFor="email">Email</Label>
        <Input id="email" name="email" type="email" autoComplete="email" required />
      </div>
      <div>
        <Label htmlFor="password">Password</Label>
        <Input id="password" name="password" type="password" autoComplete="current-password" required />
      </div>
      {error && (
        <FieldError role="alert" data-testid="signin-error">
          {error}
        </FieldError>
      )}
      <Button className="w-full" disabled={busy} type="submit">
        {busy ? "Signing in…" : "Sign in"}
      </Button>
      <p className="text-sm text-muted-foreground">
        No account?{" "}
        <Link className="text-primary underline" href="/register">
          Register
        </Link>
      </p>
    </form>
  );
}
