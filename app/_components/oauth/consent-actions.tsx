"use client";

import { useState } from "react";
import { apiRequest } from "../api-client";
import { Button } from "../ui/primitives/button";
import { FieldError } from "../ui/primitives/label";

/**
 * Allow and Deny on the consent page (docs/gateway.md#the-authorization-server): each POSTs to the
 * authorization server's mount by fetch (same origin, the session and the interaction's cookie),
 * which answers where the browser goes on: oidc-provider's resume URL, then the client's redirect.
 * A navigation, not a form post: `form-action 'self'` would block the redirect to the client.
 * `canAllow`: false when the user may not grant what is asked (only Deny is offered).
 */
export function ConsentActions({ uid, canAllow }: { uid: string; canAllow: boolean }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function finish(action: "confirm" | "abort") {
    setBusy(true);
    setError(null);
    try {
      const { location } = await apiRequest<{ location: string }>(`/oauth/interaction/${encodeURIComponent(uid)}/${action}`, {
        method: "POST",
      });
      window.location.assign(location);
    } catch (failure) {
      setBusy(false);
      setError(failure instanceof Error ? failure.message : "Something went wrong; start the sign-in again from your client.");
    }
  }

  return (
    <div className="space-y-3">
      {error && <FieldError role="alert">{error}</FieldError>}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="secondary" disabled={busy} onClick={() => finish("abort")} data-testid="consent-deny">
          Deny
        </Button>
        {canAllow && (
          <Button type="button" disabled={busy} onClick={() => finish("confirm")} data-testid="consent-allow">
            Allow
          </Button>
        )}
      </div>
    </div>
  );
}
