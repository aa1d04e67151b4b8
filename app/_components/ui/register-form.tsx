"use client";

import Link from "next/link";
import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { ApiError, registerAccount } from "../api-client";

/** Sign-up form backed by `POST /api/auth/register`; signs the new user in on success. */
export function RegisterForm() {
  const router = useRouter();
  const [error, setError] = useState<{ message: string; field?: string } | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const body = { name: String(form.get("name")), email: String(form.get("email")), password: String(form.get("password")) };
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
    await signIn("credentials", { email: body.email, password: body.password, redirect: false });
    router.replace("/servers");
  }

  const errorFor = (field: string) => (error?.field === field ? error.message : null);

  return (
    <form onSubmit={onSubmit} className="space-y-4" data-testid="register-form">
      <h2 className="text-lg font-medium">Create an account</h2>
      {(["name", "email", "password"] as const).map((field) => (
        <div key={field}>
          <label className="label" htmlFor={field}>
            {field === "name" ? "Name" : field === "email" ? "Email" : "Password (10+ characters)"}
          </label>
          <input
            className="input"
            id={field}
            name={field}
            type={field === "name" ? "text" : field}
            autoComplete={field === "password" ? "new-password" : field}
            aria-invalid={!!errorFor(field)}
            required
          />
          {errorFor(field) && (
            <p className="field-error" data-testid={`error-${field}`}>
              {errorFor(field)}
            </p>
          )}
        </div>
      ))}
      {error && !error.field && (
        <p role="alert" className="field-error">
          {error.message}
        </p>
      )}
      <button className="btn-primary w-full" disabled={busy} type="submit">
        {busy ? "Creating…" : "Create account"}
      </button>
      <p className="text-sm text-zinc-500">
        Have an account?{" "}
        <Link className="text-indigo-600 underline" href="/signin">
          Sign in
        </Link>
      </p>
    </form>
  );
}
