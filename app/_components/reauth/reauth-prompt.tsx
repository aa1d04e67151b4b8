"use client";

import { useEffect, useRef, useState } from "react";
import { Button } from "../ui/primitives/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "../ui/primitives/dialog";
import { Input } from "../ui/primitives/input";
import { FieldError, Label } from "../ui/primitives/label";
import { passkeyProof } from "../factors/passkey-proof";
import { registerReauthPrompt } from "./reauth-events";

/**
 * The dialog a sensitive act opens when the sign-in is older than 10 minutes: the password, a code
 * from the authenticator app (or a recovery code), or a passkey, sent to `POST /api/account/reauth`; on success the
 * act that asked is retried (app/_components/api-client.ts). Mounted once in the signed-in layout.
 */
export function ReauthPrompt() {
  const [message, setMessage] = useState<string | null>(null);
  const [useCode, setUseCode] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const settle = useRef<((ok: boolean) => void) | null>(null);

  useEffect(
    () =>
      registerReauthPrompt(
        (text) =>
          new Promise<boolean>((resolve) => {
            settle.current = resolve;
            setError(null);
            setMessage(text);
          }),
      ),
    [],
  );

  function close(ok: boolean) {
    settle.current?.(ok);
    settle.current = null;
    setMessage(null);
  }

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = String(new FormData(event.currentTarget).get("secret") ?? "");
    await confirm(useCode ? { code: value } : { password: value });
  }

  // One of the user's passkeys instead of a typed secret.
  async function withPasskey() {
    setError(null);
    const passkey = await passkeyProof().catch(() => null);
    if (!passkey) return setError("The passkey prompt was closed before it finished; try again.");
    await confirm({ passkey });
  }

  async function confirm(proof: Record<string, unknown>) {
    setBusy(true);
    // A plain fetch: this answer must not itself go through the prompt.
    const response = await fetch("/api/account/reauth", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(proof),
    }).catch(() => null);
    setBusy(false);
    if (response?.ok) return close(true);
    const body = (await response?.json().catch(() => null)) as { message?: string } | null;
    setError(body?.message ?? "That did not work; try again.");
  }

  return (
    <Dialog open={message !== null} onOpenChange={(open) => !open && close(false)}>
      <DialogContent data-testid="reauth-prompt">
        <DialogHeader>
          <DialogTitle>Confirm it is you</DialogTitle>
          <DialogDescription>{message}</DialogDescription>
        </DialogHeader>
        <form method="post" onSubmit={onSubmit} className="space-y-3">
          <div>
            <Label htmlFor="reauth-secret">{useCode ? "Code from your authenticator app, or a recovery code" : "Password"}</Label>
            <Input
              key={useCode ? "code" : "password"}
              id="reauth-secret"
              name="secret"
              type={useCode ? "text" : "password"}
              autoComplete={useCode ? "one-time-code" : "current-password"}
              inputMode={useCode ? "numeric" : undefined}
              required
              autoFocus
            />
          </div>
          {error && <FieldError role="alert">{error}</FieldError>}
          <DialogFooter>
            <Button type="button" variant="ghost" onClick={() => setUseCode(!useCode)}>
              {useCode ? "Use the password instead" : "Use a code instead"}
            </Button>
            <Button type="button" variant="ghost" disabled={busy} onClick={withPasskey}>
              Use a passkey
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? "Checking…" : "Confirm"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
