"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { ApiError, registerAccount } from "../api-client";
import { credentialsSignIn, signInFailureMessage } from "./credentials-sign-in";
import { Button } from "./primitives/button";
import { Input } from "./primitives/input";
import { FieldError, Label } from "./primitives/label";
import { NewPasswordInput } from "./password-meter";

const LABELS = { name: "Name", email: "Email", password: "Password (10+ characters)", setupCode: "Setup code" } as const;

/**
 * Sign-up form backed by `POST /api/auth/register`; signs the new user in on success. `fresh`: the
 * instance has no account yet, so the form asks for the setup code from the server log.
 */
export function RegisterForm({ fresh = false }: { fresh?: boolean }) {
  const router = useRouter();
  const [error, setError] = useState<{ message: string; field?: string } | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const body = {
      name: String(form.get("name")),
      email: String(form.get("email")),
      password: String(form.get("password")),
      ...(fresh ? { setupCode: String(form.get("setupCode")) } : {}),
    };
    setBusy(true);
    setError(null);
    try {
      await registerAccount(body);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setError({ message: error.message, field: error.field });
      setBusy(false);
      return;
    }
    // The answer is the same whether or not the email was new (accounts are not revealed), so a
    // failed sign-in here most likely means the account already existed with another password.
    const outcome = await credentialsSignIn(body.email, body.password);
    if (!outcome.ok) {
      setError({
        message:
          outcome.reason === "wrong"
            ? "Could not sign you in. If you already have an account, sign in with its password."
            : signInFailureMessage(outcome),
      });
      setBusy(false);
      return;
    }
    router.replace("/servers");
  }

  const errorFor = (field: string) => (error?.field === field ? error.message : null);

  // method="post": a submit before hydration must never put the password in the URL.
  return (
    <form method="post" onSubmit={onSubmit} className="space-y-4" data-testid="register-form">
      <h2 className="text-lg font-medium">Create an account</h2>
      {fresh && (
        <div className="space-y-1 rounded-md border border-primary/30 bg-primary/5 p-3 text-sm" data-testid="first-run-note">
          <p className="font-medium">Welcome to Switchboard</p>
          <p>
            No account yet — the first account becomes the administrator; find the setup code in the server log. Then choose a model in
            Settings and add your MCP servers.
          </p>
        </div>
      )}
      {(fresh ? (["setupCode", "name", "email", "password"] as const) : (["name", "email", "password"] as const)).map((field) => (
        <div key={field}>
          <Label htmlFor={field}>{LABELS[field]}</Label>
          {field === "password" ? (
            <NewPasswordInput id={field} name={field} aria-invalid={!!errorFor(field)} required />
          ) : (
            <Input
              id={field}
              name={field}
              type={field === "name" || field === "setupCode" ? "text" : field}
              autoComplete={field === "setupCode" ? "off" : field}
              aria-invalid={!!errorFor(field)}
              required
            />
          )}
          {errorFor(field) && (
            <p className="field-error" data-testid={`error-${field}`}>
              {errorFor(field)}
            </p>
          )}
        </div>
      ))}
      {error && !error.field && <FieldError role="alert">{error.message}</FieldError>}
      <Button className="w-full" disabled={busy} type="submit">
        {busy ? "Creating…" : "Create account"}
      </Button>
      <p className="text-sm text-muted-foreground">
        Have an account?{" "}
        <Link className="text-primary underline" href="/signin">
          Sign in
        </Link>
      </p>
    </form>
  );
}
