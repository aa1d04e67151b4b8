"use client";

import { useState } from "react";
import { api } from "../api-client";
import { Button } from "../ui/primitives/button";
import { Input } from "../ui/primitives/input";
import { Label } from "../ui/primitives/label";
import { NativeSelect } from "../ui/primitives/select";

/** Invite by email with a role; the link is shown once, to copy (there is no mail server). */
export function InviteForm({
  workspaceId,
  ownerMayInviteOwners,
  onInvited,
}: {
  workspaceId: string;
  ownerMayInviteOwners: boolean;
  onInvited: () => void;
}) {
  const [link, setLink] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      className="space-y-2 rounded-md border border-border p-3"
      onSubmit={async (e) => {
        e.preventDefault();
        const form = new FormData(e.currentTarget);
        setError(null);
        try {
          const created = await api<{ url: string }>(`/api/workspaces/${workspaceId}/invitations`, {
            method: "POST",
            json: { email: form.get("email"), role: form.get("role") },
          });
          setLink(created.url);
          onInvited();
        } catch (err) {
          setError((err as Error).message);
        }
      }}
    >
      <div className="flex flex-wrap items-end gap-2">
        <Label className="mb-0 min-w-0 flex-1 basis-48">
          <span className="mb-1 block">Invite by email</span>
          <Input name="email" type="email" required />
        </Label>
        <Label className="mb-0">
          <span className="mb-1 block">Role</span>
          <NativeSelect name="role" defaultValue="member" aria-label="Invitation role">
            <option value="member">member</option>
            <option value="admin">admin</option>
            {ownerMayInviteOwners && <option value="owner">owner</option>}
          </NativeSelect>
        </Label>
        <Button type="submit">Invite</Button>
      </div>
      {error && <p className="field-error">{error}</p>}
      {link && (
        <p className="text-sm">
          Copy this link now (it is shown once, works once, for 7 days):{" "}
          <Input className="mt-1 font-mono" readOnly value={link} data-testid="invitation-link" onFocus={(e) => e.currentTarget.select()} />
        </p>
      )}
    </form>
  );
}
