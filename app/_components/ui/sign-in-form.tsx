"use client";

import Link from "next/link";
import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState } from "react";

/** Email + password sign-in through next-auth's Credentials provider. */
export function SignInForm() {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    const result = await signIn("credentials", {
      email: String(form.get("email")),
      password: String(form.get("password")),
      redirect: false,
    });
    setBusy(false);
    if (result?.ok && !result.error) router.replace("/chat");
    else setError("Wrong email or password.");
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4" data-testid="signin-form">
      <h2 className="text-lg font-medium">Sign in</h2>
      <div>
        <label className="label" htmlFor="email">
          Email
        </label>
        <input className="input" id="email" name="email" type="email" autoComplete="email" required />
      </div>
      <div>
        <label className="label" htmlFor="password">
          Password
        </label>
        <input className="input" id="password" name="password" type="password" autoComplete="current-password" required />
      </div>
      {error && (
        <p role="alert" className="field-error">
          {error}
        </p>
      )}
      <button className="btn-primary w-full" disabled={busy} type="submit">
        {busy ? "Signing in…" : "Sign in"}
      </button>
      <p className="text-sm text-zinc-500">
        No account?{" "}
        <Link className="text-indigo-600 underline" href="/register">
          Register
        </Link>
      </p>
    </form>
  );
}
