"use client";

import { type RegistrationResponseJSON, startRegistration } from "@simplewebauthn/browser";
import { useState } from "react";
import { ApiError, api } from "../api-client";
import { Button } from "../ui/primitives/button";
import { Input } from "../ui/primitives/input";
import { FieldError, Label } from "../ui/primitives/label";
import { RecoveryCodesShown } from "./recovery-codes-shown";

/**
 * Adding a passkey: a name, the browser's own passkey dialog, then, when it is the account's first
 * factor, the ten recovery codes shown once. `onDone` runs when the passkey is added (and the codes kept).
 */
export function PasskeyEnrolment({ onDone }: { onDone: () => void }) {
  const [codes, setCodes] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function add(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get("name") ?? "");
    setBusy(true);
    setError(null);
    try {
      const optionsJSON = await api<Parameters<typeof startRegistration>[0]["optionsJSON"]>("/api/account/factors/passkey", {
        method: "POST",
        json: {},
      });
      let response: RegistrationResponseJSON;
      try {
        response = await startRegistration({ optionsJSON });
      } catch {
        return setError("The passkey was not created (the dialog was closed, or this device has one for the account already).");
      }
      const added = await api<{ recoveryCodes: string[] | null }>("/api/account/factors/passkey/confirm", {
        method: "POST",
        json: { name, response },
      });
      if (added.recoveryCodes) setCodes(added.recoveryCodes);
      else onDone();
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : "That did not work; try again.");
    } finally {
      setBusy(false);
    }
  }

  if (codes) return <RecoveryCodesShown codes={codes} what="The passkey is added." onDone={onDone} />;

  return (
    <form method="post" onSubmit={add} className="flex flex-wrap items-end gap-2" data-testid="passkey-enrolment">
      <div>
        <Label htmlFor="passkey-name">Passkey name</Label>
        <Input id="passkey-name" name="name" maxLength={80} placeholder="Laptop" />
      </div>
      <Button type="submit" disabled={busy} data-testid="add-passkey">
        {busy ? "Waiting for the passkey…" : "Add a passkey"}
      </Button>
      {error && <FieldError role="alert">{error}</FieldError>}
    </form>
  );
}
