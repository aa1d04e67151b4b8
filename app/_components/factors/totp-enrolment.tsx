"use client";

import { useState } from "react";
import { ApiError, api } from "../api-client";
import { Button } from "../ui/primitives/button";
import { Input } from "../ui/primitives/input";
import { FieldError, Label } from "../ui/primitives/label";
import { RecoveryCodesShown } from "./recovery-codes-shown";

type Started = { factorId: string; secret: string; uri: string };

/**
 * Adding an authenticator app: the secret (and its `otpauth://` link) shown once, a code from the
 * app to confirm, then the ten recovery codes shown once. `onDone` runs when the user has them.
 */
export function TotpEnrolment({ onDone }: { onDone: () => void }) {
  const [started, setStarted] = useState<Started | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function run(action: () => Promise<void>) {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : "That did not work; try again.");
    } finally {
      setBusy(false);
    }
  }

  const start = () => run(async () => setStarted(await api<Started>("/api/account/factors/totp", { method: "POST", json: {} })));

  function confirm(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get("code"));
    void run(async () => {
      const answer = await api<{ recoveryCodes: string[] }>("/api/account/factors/totp/confirm", {
        method: "POST",
        json: { factorId: started?.factorId, code },
      });
      setCodes(answer.recoveryCodes);
    });
  }

  if (codes) return <RecoveryCodesShown codes={codes} what="The authenticator is added." onDone={onDone} />;

  if (!started)
    return (
      <div className="space-y-2">
        <Button onClick={start} disabled={busy} data-testid="add-totp">
          Add an authenticator app
        </Button>
        {error && <FieldError role="alert">{error}</FieldError>}
      </div>
    );

  return (
    <form method="post" onSubmit={confirm} className="space-y-3" data-testid="totp-enrolment">
      <p className="text-sm">
        In your authenticator app, add an account with this key (or open the{" "}
        <a className="text-primary underline" href={started.uri}>
          setup link
        </a>{" "}
        on this device):
      </p>
      <code className="block break-all rounded bg-muted p-2 text-sm" data-testid="totp-secret">
        {started.secret}
      </code>
      <div>
        <Label htmlFor="totp-code">Code shown by the app</Label>
        <Input id="totp-code" name="code" autoComplete="one-time-code" inputMode="numeric" required />
      </div>
      {error && <FieldError role="alert">{error}</FieldError>}
      <Button type="submit" disabled={busy}>
        {busy ? "Checking…" : "Confirm"}
      </Button>
    </form>
  );
}
