"use client";

import { useState } from "react";
import { ApiError, api } from "../api-client";
import { Button } from "../ui/primitives/button";
import { FieldError } from "../ui/primitives/label";

/** The policies as `GET /api/admin/mfa-policy` answers them. */
export interface MfaPolicyView {
  requiredForAdmins: boolean;
  adminsExplicit: boolean;
  requiredForEveryone: boolean;
}

/**
 * Admin › Second factors: require a factor of instance administrators and/or of everyone. Saving is
 * a sensitive act: an old sign-in gets the re-authentication prompt first.
 */
export function MfaPolicyForm({ initial }: { initial: MfaPolicyView }) {
  const [policy, setPolicy] = useState(initial);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const input = { requiredForAdmins: form.get("admins") === "on", requiredForEveryone: form.get("everyone") === "on" };
    try {
      setPolicy(await api<MfaPolicyView>("/api/admin/mfa-policy", { method: "PUT", json: input }));
      setStatus({ ok: true, text: "Saved." });
    } catch (caught) {
      setStatus({ ok: false, text: caught instanceof ApiError ? caught.message : "The policy could not be saved." });
    }
  }

  return (
    <form method="post" onSubmit={onSubmit} className="space-y-2 text-sm" data-testid="mfa-policy">
      <h2 className="text-lg font-medium">Second factors</h2>
      <label className="flex items-center gap-2">
        <input type="checkbox" name="admins" defaultChecked={policy.requiredForAdmins} />
        Required for instance administrators
        {!policy.adminsExplicit && <span className="text-muted-foreground">(on by default once an administrator has enrolled)</span>}
      </label>
      <label className="flex items-center gap-2">
        <input type="checkbox" name="everyone" defaultChecked={policy.requiredForEveryone} />
        Required for everyone
      </label>
      {status && (status.ok ? <p role="status">{status.text}</p> : <FieldError role="alert">{status.text}</FieldError>)}
      <Button type="submit" size="sm">
        Save
      </Button>
    </form>
  );
}
