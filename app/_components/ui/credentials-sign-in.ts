/**
 * Credentials sign-in against next-auth's endpoints, done by hand rather than with `signIn()` from
 * next-auth/react, which cannot report a throttled attempt (429 with Retry-After).
 */

/** The outcome of a sign-in attempt. */
export type SignInOutcome = { ok: true } | { ok: false; reason: "wrong" | "throttled" | "failed"; retryAfterSeconds?: number };

/** Sign in with email and password; the session cookie is set on success. */
export async function credentialsSignIn(email: string, password: string): Promise<SignInOutcome> {
  const csrf = await fetch("/api/auth/csrf").then((r) => (r.ok ? (r.json() as Promise<{ csrfToken: string }>) : null));
  if (!csrf) return { ok: false, reason: "failed" };
  const response = await fetch("/api/auth/callback/credentials", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken: csrf.csrfToken, email, password, json: "true" }),
  });
  if (response.status === 429)
    return { ok: false, reason: "throttled", retryAfterSeconds: Number(response.headers.get("retry-after")) || undefined };
  if (response.status === 401) return { ok: false, reason: "wrong" };
  const data = (await response.json().catch(() => ({}))) as { url?: string };
  const error = data.url ? new URL(data.url, window.location.href).searchParams.get("error") : "missing";
  return response.ok && !error ? { ok: true } : { ok: false, reason: "failed" };
}

/** The message to show for a failed attempt. */
export function signInFailureMessage(outcome: Exclude<SignInOutcome, { ok: true }>): string {
  if (outcome.reason === "wrong") return "Wrong email or password.";
  if (outcome.reason === "throttled")
    return `Too many attempts. Try again in ${outcome.retryAfterSeconds ? `${outcome.retryAfterSeconds} seconds` : "a moment"}.`;
  return "Sign-in failed; try again.";
}
