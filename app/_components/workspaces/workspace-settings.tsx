"use client";

import { ScrollX } from "../ui/primitives/scroll-x";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useState } from "react";
import { api } from "../api-client";
import { Button } from "../ui/primitives/button";
import { Input } from "../ui/primitives/input";
import { FieldError, Label } from "../ui/primitives/label";
import { NativeSelect } from "../ui/primitives/select";
import { InviteForm } from "./invite-form";
import { ToolSearchForm } from "../tool-search/tool-search-form";
import { WorkspaceModelForm } from "./workspace-model-form";

type Role = "owner" | "admin" | "member";
interface Member {
  userId: string;
  email: string;
  name: string;
  role: Role;
}
interface Invitation {
  id: string;
  email: string;
  role: Role;
  expiresAt: string;
  invitedBy: { id: string; name: string | null } | null;
}

/** Members, invitations, default model, tool search, rename/delete/leave of one workspace (its audit log is Settings › Audit). */
export function WorkspaceSettings({
  workspace,
  me,
}: {
  workspace: { id: string; name: string; personal: boolean };
  me: { id: string; role: Role };
}) {
  const router = useRouter();
  const base = `/api/workspaces/${workspace.id}`;
  const manager = me.role !== "member";
  const [members, setMembers] = useState<Member[]>([]);
  const [invitations, setInvitations] = useState<Invitation[]>([]);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setMembers((await api<{ members: Member[] }>(`${base}/members`)).members);
      if (manager && !workspace.personal) setInvitations((await api<{ invitations: Invitation[] }>(`${base}/invitations`)).invitations);
    } catch (e) {
      setError((e as Error).message);
    }
  }, [base, manager, workspace.personal]);
  useEffect(() => {
    void load();
  }, [load]);

  async function act(fn: () => Promise<unknown>) {
    setError(null);
    try {
      await fn();
      await load();
    } catch (e) {
      setError((e as Error).message);
    }
  }

  async function leaveOrDelete(kind: "leave" | "delete") {
    if (!confirm(kind === "leave" ? `Leave ${workspace.name}?` : `Delete ${workspace.name} with its servers and chats?`)) return;
    setError(null);
    try {
      await api(kind === "leave" ? `${base}/members/${me.id}` : base, { method: "DELETE" });
      router.push("/w/personal/chat");
      router.refresh();
    } catch (e) {
      setError((e as Error).message);
    }
  }

  return (
    <section className="space-y-4" data-testid="workspace-settings">
      <h2 className="text-lg font-semibold">Workspace: {workspace.name}</h2>
      {error && <FieldError role="alert">{error}</FieldError>}
      {me.role === "owner" && !workspace.personal && (
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            const name = String(new FormData(e.currentTarget).get("name") ?? "");
            void act(async () => {
              await api(base, { method: "PATCH", json: { name } });
              router.refresh();
            });
          }}
        >
          <Label className="mb-0 min-w-0 flex-1 basis-48">
            <span className="mb-1 block">Workspace name</span>
            <Input name="name" defaultValue={workspace.name} required maxLength={80} />
          </Label>
          <Button variant="secondary" type="submit">
            Rename
          </Button>
        </form>
      )}
      <ScrollX label="Members">
        <table className="w-full text-sm" data-testid="members">
          <thead>
            <tr className="text-left text-muted-foreground">
              <th>Member</th>
              <th>Role</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {members.map((m) => (
              <tr key={m.userId} data-testid={`member-${m.email}`}>
                <td>
                  {m.name} <span className="text-muted-foreground">{m.email}</span>
                </td>
                <td>
                  {manager && !workspace.personal && (me.role === "owner" || m.role !== "owner") ? (
                    <NativeSelect
                      aria-label={`Role of ${m.email}`}
                      // A table cell would squeeze the select to its arrow on a phone; the table scrolls instead.
                      className="w-auto min-w-24"
                      value={m.role}
                      onChange={(e) =>
                        void act(() => api(`${base}/members/${m.userId}`, { method: "PATCH", json: { role: e.target.value } }))
                      }
                    >
                      {me.role === "owner" && <option value="owner">owner</option>}
                      <option value="admin">admin</option>
                      <option value="member">member</option>
                    </NativeSelect>
                  ) : (
                    m.role
                  )}
                </td>
                <td className="text-right">
                  {manager && !workspace.personal && m.userId !== me.id && (me.role === "owner" || m.role !== "owner") && (
                    <Button
                      type="button"
                      variant="secondary"
                      onClick={() =>
                        confirm(`Remove ${m.email}?`) && void act(() => api(`${base}/members/${m.userId}`, { method: "DELETE" }))
                      }
                    >
                      Remove
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollX>
      {manager && !workspace.personal && (
        <>
          <InviteForm workspaceId={workspace.id} ownerMayInviteOwners={me.role === "owner"} onInvited={load} />
          {invitations.length > 0 && (
            <ul className="space-y-1 text-sm" data-testid="pending-invitations">
              {invitations.map((i) => (
                <li key={i.id} className="flex flex-wrap items-center gap-2">
                  <span className="min-w-0 flex-1 break-words">
                    {i.email} ({i.role}), until {new Date(i.expiresAt).toLocaleDateString()}
                    {i.invitedBy && <span data-testid="invited-by">, invited by {i.invitedBy.name ?? "a former member"}</span>}
                  </span>
                  <Button
                    type="button"
                    variant="secondary"
                    onClick={() => void act(() => api(`${base}/invitations/${i.id}`, { method: "DELETE" }))}
                  >
                    Revoke
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
      <WorkspaceModelForm workspaceId={workspace.id} editable={manager} />
      <ToolSearchForm workspaceId={workspace.id} editable={manager} />
      {!workspace.personal && (
        <div className="flex flex-wrap gap-2">
          <Button type="button" variant="secondary" onClick={() => void leaveOrDelete("leave")}>
            Leave workspace
          </Button>
          {me.role === "owner" && (
            <Button type="button" variant="destructive" onClick={() => void leaveOrDelete("delete")}>
              Delete workspace
            </Button>
          )}
        </div>
      )}
    </section>
  );
}
