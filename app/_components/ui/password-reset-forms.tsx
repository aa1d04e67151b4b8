"use client";

import Link from "next/link";
import { useState } from "react";
import { ApiError, api } from "../api-client";
import { NewPasswordInput } from "./password-meter";
import { Button } from "./primitives/button";
import { Input } from "./primitives/input";
import { FieldError, Label } from "./primitives/label";

/** A reset link's form: the new password (with the strength meter); on success, on to sign-in. */
export function ResetPasswordForm({ token, email }: { token: string; email: string }) {
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget).get("password"));
    setBusy(true);
    setError(null);
    try {
      await api(`/api/password-reset/${encodeURIComponent(token)}`, { method: "POST", json: { password } });
      setDone(true);
    } catch (failure) {
      if (!(failure instanceof ApiError)) throw failure;
      setError(failure.message);
    }
    setBusy(false);
  }

  if (done)
    return (
      <div className="space-y-3" data-testid="reset-done">
        <p role="status">Your password is changed, and every session of the account has ended.</p>
        <Link className="text-primary underline" href="/signin">
          Sign in with the new password
        </Link>
      </div>
    );
  // method="post": a submit before hydration must never put the password in the URL.
  return (
    <form method="post" onSubmit={onSubmit} className="space-y-4" data-testid="reset-form">
      <h2 className="text-lg font-medium">Choose a new password</h2>
      <p className="text-sm text-muted-foreground">
        For <span className="break-all">{email}</span>. Every session of the account ends when it is changed.
      </p>
      <div>
        <Label htmlFor="password">New password (10+ characters)</Label>
        <NewPasswordInput id="password" name="password" required userInputs={[email]} aria-invalid={!!error} />
      </div>
      {error && <FieldError role="alert">{error}</FieldError>}
      <Button className="w-full" disabled={busy} type="submit">
        {busy ? "Saving…" : "Set new password"}
      </Button>
    </form>
  );
}

/** "Forgot password?": asks for a reset link by email; the answer is the same for any address. */
export function ForgotPasswordForm() {
  const [answer, setAnswer] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get("email"));
    setBusy(true);
    setError(null);
    try {
      setAnswer((await api<{ message: string }>("/api/auth/forgot-password", { method: "POST", json: { email } })).message);
    } catch (failure) {
      if (!(failure instanceof ApiError)) throw failure;
      setError(failure.message);
    }
    setBusy(false);
  }

  return (
    <form method="post" onSubmit={onSubmit} className="space-y-4" data-testid="forgot-form">
      <h2 className="text-lg font-medium">Forgot password?</h2>
      <p className="text-sm text-muted-foreground">Enter your account's email: a link to choose a new password is sent to it.</p>
      <div>
        <Label htmlFor="email">Email</Label>
        <Input id="email" name="email" type="email" autoComplete="email" required />
      </div>
      {answer && (
        <p role="status" data-testid="forgot-answer">
          {answer}
        </p>
      )}
      {error && <FieldError role="alert">{error}</FieldError>}
      <Button className="w-full" disabled={busy} type="submit">
        {busy ? "Sending…" : "Send the link"}
      </Button>
      <p className="text-sm text-muted-foreground">
        <Link className="text-primary underline" href="/signin">
          Back to sign-in
        </Link>
      </p>
    </form>
  );
}
