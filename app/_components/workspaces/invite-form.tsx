"use client";

import { useState } from "react";
import { api } from "../api-client";

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
      className="space-y-2 rounded-md border border-zinc-200 p-3 dark:border-zinc-800"
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
      <div className="flex items-end gap-2">
        <label className="flex-1">
          <span className="label">Invite by email</span>
          <input className="input" name="email" type="email" required />
        </label>
        <label>
          <span className="label">Role</span>
          <select className="input" name="role" defaultValue="member" aria-label="Invitation role">
            <option value="member">member</option>
            <option value="admin">admin</option>
            {ownerMayInviteOwners && <option value="owner">owner</option>}
          </select>
        </label>
        <button className="btn-primary" type="submit">
          Invite
        </button>
      </div>
      {error && <p className="field-error">{error}</p>}
      {link && (
        <p className="text-sm">
          Copy this link now (it is shown once, works once, for 7 days):{" "}
          <input
            className="input mt-1 font-mono"
            readOnly
            value={link}
            data-testid="invitation-link"
            onFocus={(e) => e.currentTarget.select()}
          />
        </p>
      )}
    </form>
  );
}
