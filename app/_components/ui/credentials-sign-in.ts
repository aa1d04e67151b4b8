/**
 * Credentials sign-in against next-auth's endpoints, done by hand rather than with `signIn()` from
 * next-auth/react, which cannot report a throttled attempt (429 with Retry-After).
 */
import { startAuthentication } from "@simplewebauthn/browser";

/** The outcome of a sign-in attempt. */
export type SignInOutcome =
  | { ok: true }
  | {
      ok: false;
      reason: "wrong" | "wrong_code" | "wrong_passkey" | "cancelled" | "second_factor" | "expired" | "disabled" | "throttled" | "failed";
      retryAfterSeconds?: number;
    };

// The `error` the server's sign-in answers with when the password was right but the account is
// disabled (lib/auth/credentials.ts, ACCOUNT_DISABLED_SIGN_IN); a wrong password never gets it.
const ACCOUNT_DISABLED = "AccountDisabled";
// The pending sign-in is gone (5 minutes, or 5 wrong codes): the password is needed again (lib/auth/sign-in-steps.ts).
const SIGN_IN_EXPIRED = "SignInExpired";

/** What a disabled account is told, at sign-in and when its open page loses the session. */
export const ACCOUNT_DISABLED_MESSAGE = "Your account is disabled; ask an administrator to enable it again.";

/** Sign in with email and password; the session cookie is set on success, or a code is owed (`second_factor`). */
export function credentialsSignIn(email: string, password: string): Promise<SignInOutcome> {
  return postCredentials({ email, password });
}

/** The second step: a code from the authenticator app or a recovery code, for the pending sign-in. */
export function secondFactorSignIn(code: string): Promise<SignInOutcome> {
  return postCredentials({ code });
}

/**
 * Sign in with a passkey: passwordless (`sign-in`: the authenticator offers its passkeys for this
 * site and verifies the user) or as the second step of a pending sign-in (`second-factor`).
 */
export async function passkeySignIn(purpose: "sign-in" | "second-factor"): Promise<SignInOutcome> {
  const options = await fetch("/api/auth/passkey", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ purpose }),
  });
  if (!options.ok) return { ok: false, reason: "failed" };
  // Cancelled or timed out in the browser's own dialog: nothing was sent, nothing counted.
  const answer = await startAuthentication({ optionsJSON: await options.json() }).catch(() => null);
  if (!answer) return { ok: false, reason: "cancelled" };
  return postCredentials({ passkey: JSON.stringify(answer) });
}

async function postCredentials(fields: Record<string, string>): Promise<SignInOutcome> {
  const csrf = await fetch("/api/auth/csrf").then((r) => (r.ok ? (r.json() as Promise<{ csrfToken: string }>) : null));
  if (!csrf) return { ok: false, reason: "failed" };
  const response = await fetch("/api/auth/callback/credentials", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken: csrf.csrfToken, ...fields, json: "true" }),
  });
  if (response.status === 429)
    return { ok: false, reason: "throttled", retryAfterSeconds: Number(response.headers.get("retry-after")) || undefined };
  const data = (await response.json().catch(() => ({}))) as { url?: string; code?: string };
  // The password was right and the account has a second factor (lib/auth/nextauth-handler.ts).
  if (data.code === "auth.second_factor_required") return { ok: false, reason: "second_factor" };
  const error = data.url ? new URL(data.url, window.location.href).searchParams.get("error") : "missing";
  if (response.status === 401) {
    if (error === ACCOUNT_DISABLED) return { ok: false, reason: "disabled" };
    if (error === SIGN_IN_EXPIRED) return { ok: false, reason: "expired" };
    return { ok: false, reason: fields.passkey ? "wrong_passkey" : fields.code ? "wrong_code" : "wrong" };
  }
  return response.ok && !error ? { ok: true } : { ok: false, reason: "failed" };
}

/** The message to show for a failed attempt. */
export function signInFailureMessage(outcome: Exclude<SignInOutcome, { ok: true }>): string {
  if (outcome.reason === "wrong") return "Wrong email or password.";
  if (outcome.reason === "wrong_code") return "That code is not right; enter the current one, or a recovery code.";
  if (outcome.reason === "wrong_passkey") return "The passkey was not accepted; use a passkey added to your account.";
  if (outcome.reason === "cancelled") return "The passkey prompt was closed before it finished; try again.";
  if (outcome.reason === "expired") return "The sign-in took too long or had too many wrong codes; enter your password again.";
  if (outcome.reason === "second_factor") return "Enter the code from your authenticator app.";
  if (outcome.reason === "disabled") return ACCOUNT_DISABLED_MESSAGE;
  if (outcome.reason === "throttled")
    return `Too many attempts. Try again in ${outcome.retryAfterSeconds ? `${outcome.retryAfterSeconds} seconds` : "a moment"}.`;
  return "Sign-in failed; try again.";
}
