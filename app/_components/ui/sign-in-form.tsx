"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import {
  ACCOUNT_DISABLED_MESSAGE,
  credentialsSignIn,
  passkeySignIn,
  type SignInOutcome,
  secondFactorSignIn,
  signInFailureMessage,
} from "./credentials-sign-in";
import { Button } from "./primitives/button";
import { Input } from "./primitives/input";
import { FieldError, Label } from "./primitives/label";

/**
 * Email + password sign-in through next-auth's Credentials provider, then a second-factor code when
 * the account has one, or a passkey for either step or for both (docs/second-factors.md). `fresh`: the instance has no
 * account yet; `disabled`: the page was sent here because the account's session ended when it was disabled;
 * `forgotPassword`: the instance sends mail, so a "Forgot password?" link asks for a reset link.
 * `codeFirst`: a single sign-on owes a second factor (docs/sso.md), so the form starts at the code.
 * `returnTo`: where to go once signed in (the sign-in page checked it), else the chat.
 */
export function SignInForm({
  fresh = false,
  disabled = false,
  forgotPassword = false,
  codeFirst = false,
  returnTo,
}: {
  fresh?: boolean;
  disabled?: boolean;
  forgotPassword?: boolean;
  codeFirst?: boolean;
  returnTo?: string;
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(disabled ? ACCOUNT_DISABLED_MESSAGE : null);
  const [busy, setBusy] = useState(false);
  // The password was right and a second factor is owed: the form asks for the code instead.
  const [codeStep, setCodeStep] = useState(codeFirst);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    const outcome = codeStep
      ? await secondFactorSignIn(String(form.get("code")))
      : await credentialsSignIn(String(form.get("email")), String(form.get("password")));
    settle(outcome);
  }

  function settle(outcome: SignInOutcome) {
    setBusy(false);
    if (outcome.ok) return router.replace(returnTo ?? "/chat");
    if (outcome.reason === "second_factor") return setCodeStep(true);
    if (outcome.reason === "expired") setCodeStep(false);
    setError(signInFailureMessage(outcome));
  }

  // A passkey instead of the password (passwordless) or instead of the code (second step).
  async function withPasskey(purpose: "sign-in" | "second-factor") {
    setBusy(true);
    setError(null);
    settle(await passkeySignIn(purpose));
  }

  if (codeStep)
    return (
      <form method="post" onSubmit={onSubmit} className="space-y-4" data-testid="second-factor-form">
        <h2 className="text-lg font-medium">Second factor</h2>
        <p className="text-sm text-muted-foreground">Enter the 6-digit code from your authenticator app, or one of your recovery codes.</p>
        <div>
          <Label htmlFor="code">Code</Label>
          <Input id="code" name="code" autoComplete="one-time-code" autoFocus required />
        </div>
        {error && (
          <FieldError role="alert" data-testid="signin-error">
            {error}
          </FieldError>
        )}
        <Button className="w-full" disabled={busy} type="submit">
          {busy ? "Checking…" : "Verify"}
        </Button>
        <Button className="w-full" disabled={busy} type="button" variant="secondary" onClick={() => withPasskey("second-factor")}>
          Use a passkey
        </Button>
      </form>
    );

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
        <div className="flex items-baseline justify-between gap-2">
          <Label htmlFor="password">Password</Label>
          {forgotPassword && (
            <Link className="text-sm text-primary underline" href="/forgot-password">
              Forgot password?
            </Link>
          )}
        </div>
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
      <Button className="w-full" disabled={busy} type="button" variant="secondary" onClick={() => withPasskey("sign-in")}>
        Sign in with a passkey
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
