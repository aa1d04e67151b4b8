"use client";

import Link from "next/link";
import { useState } from "react";
import { Button } from "./primitives/button";
import { FieldError } from "./primitives/label";

/** Why an SSO sign-in came back to the sign-in page (`?error=`), in words (lib/auth/sso/sso-sign-in.ts). */
const SSO_ERRORS: Record<string, string> = {
  "sso.domain_not_allowed":
    "Your organisation account's email domain may not sign in to this instance. Ask an administrator to let your domain in.",
  "sso.unverified_email": "Your identity provider has not verified your email address, so it cannot be matched to an account here.",
  "sso.no_email": "Your identity provider sent no email address; ask its administrator to release the email claim.",
  "sso.account_disabled": "Your account is disabled; ask an administrator to enable it again.",
  "sso.setup_pending": "This instance has no administrator yet: create the first account with the setup code first.",
  "sso.unavailable": "That sign-in provider is not available right now; try again or ask an administrator.",
};
// next-auth's own codes for a flow that broke on the way (state, PKCE, ID token, network).
const FLOW_FAILED = "Single sign-on did not complete; please try again.";
const NEXT_AUTH_FLOW_ERRORS = new Set([
  "OAuthSignin",
  "OAuthCallback",
  "OAuthCreateAccount",
  "Callback",
  "OAuthAccountNotLinked",
  "AccessDenied",
  "Configuration",
  "sso.failed",
]);

/** The sentence for an `?error=` the sign-in page was sent with, or null when it is not an SSO one. */
export function ssoErrorMessage(error: string | undefined): string | null {
  if (!error) return null;
  return SSO_ERRORS[error] ?? (NEXT_AUTH_FLOW_ERRORS.has(error) ? FLOW_FAILED : null);
}

/**
 * The single sign-on buttons (docs/sso.md): each posts to next-auth's `signin/<id>` with its CSRF
 * token, and the browser goes on to the identity provider. `passwordsOff`: SSO-only mode hides the
 * password form; a link still reaches it for the break-glass administrator. `returnTo`: where the
 * identity provider's answer lands once signed in (the sign-in page checked it), else the chat.
 */
export function SsoButtons({
  providers,
  error,
  passwordsOff = false,
  returnTo,
}: {
  providers: { id: string; label: string }[];
  error?: string;
  passwordsOff?: boolean;
  returnTo?: string;
}) {
  const [busy, setBusy] = useState(false);
  const message = ssoErrorMessage(error);
  if (!providers.length && !message) return null;

  // By fetch, as next-auth/react's signIn does: the page's no-referrer policy sends a form post's
  // Origin as "null" (refused as cross-site), and `form-action 'self'` would block its redirect to
  // the provider. next-auth answers `{url}` (the provider's authorization URL) and sets its cookies.
  async function start(id: string) {
    setBusy(true);
    const csrf = await fetch("/api/auth/csrf").then((r) => (r.ok ? (r.json() as Promise<{ csrfToken: string }>) : null));
    const response = csrf
      ? await fetch(`/api/auth/signin/${encodeURIComponent(id)}`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ csrfToken: csrf.csrfToken, callbackUrl: returnTo ?? "/chat", json: "true" }),
        })
      : null;
    const url = response?.ok ? ((await response.json().catch(() => ({}))) as { url?: string }).url : undefined;
    if (!url) {
      setBusy(false);
      return window.location.assign("/signin?error=sso.unavailable");
    }
    window.location.assign(url);
  }

  return (
    <div className="mb-6 space-y-3" data-testid="sso-buttons">
      {message && (
        <FieldError role="alert" data-testid="sso-error">
          {message}
        </FieldError>
      )}
      {providers.map((provider) => (
        <Button
          key={provider.id}
          className="w-full"
          disabled={busy}
          type="button"
          onClick={() => start(provider.id)}
          data-testid={`sso-${provider.id}`}
        >
          Continue with {provider.label}
        </Button>
      ))}
      {passwordsOff && (
        <p className="text-sm text-muted-foreground">
          Passwords are turned off on this instance.{" "}
          <Link className="text-primary underline" href="/signin?password=1" data-testid="break-glass-link">
            Administrator sign-in
          </Link>
        </p>
      )}
    </div>
  );
}
