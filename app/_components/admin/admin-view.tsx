"use client";

import { ScrollX } from "../ui/primitives/scroll-x";
import { useCallback, useEffect, useState } from "react";
import { api } from "../api-client";
import { latestOnly } from "../latest-only";
import { Badge } from "../ui/primitives/badge";
import { Button } from "../ui/primitives/button";
import { Input } from "../ui/primitives/input";
import { FieldError, Label } from "../ui/primitives/label";
import { AuditLog } from "./audit-log";

interface User {
  id: string;
  email: string;
  name: string;
  isAdmin: boolean;
  disabledAt: string | null;
  /** The single sign-on providers the user came from. */
  sso?: string[];
}
interface Workspace {
  id: string;
  name: string;
  slug: string | null;
  personal: boolean;
  members: number;
  owners: { name: string; email: string }[];
}

/** Users (search, invite, disable, admin rights, delete), every workspace, and the audit log. */
export function AdminView({ meId, policies }: { meId: string; policies?: React.ReactNode }) {
  const [users, setUsers] = useState<User[]>([]);
  const [workspaces, setWorkspaces] = useState<Workspace[]>([]);
  const [q, setQ] = useState("");
  const [link, setLink] = useState<string | null>(null);
  // The last invitation or reset link sent by email (mail set up), or a reset link to pass on.
  const [notice, setNotice] = useState<string | null>(null);
  const [resetLink, setResetLink] = useState<{ email: string; url: string } | null>(null);
  const [error, setError] = useState<string | null>(null);

  // Each change of the search reloads: only the latest answer is shown (an earlier, slower one is dropped).
  const [latest] = useState(latestOnly);
  const load = useCallback(async () => {
    try {
      const answer = await latest(async () => ({
        users: (await api<{ users: User[] }>(`/api/admin/users?${new URLSearchParams(q ? { q } : {})}`)).users,
        workspaces: (await api<{ workspaces: Workspace[] }>("/api/admin/workspaces")).workspaces,
      }));
      if (answer.stale) return;
      setUsers(answer.value.users);
      setWorkspaces(answer.value.workspaces);
    } catch (e) {
      setError((e as Error).message);
    }
  }, [q, latest]);
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

  return (
    <section className="mx-auto w-full max-w-5xl min-w-0 space-y-8 p-4 sm:p-6">
      <h1 className="text-xl font-semibold">Administration</h1>
      {error && <FieldError role="alert">{error}</FieldError>}
      {/* Instance-wide policies (second factors, sign-in) come first, under the page's heading. */}
      {policies}
      <section className="space-y-3">
        <h2 className="text-lg font-semibold">Users</h2>
        <div className="flex gap-2">
          <Input placeholder="Search name or email" aria-label="Search users" value={q} onChange={(e) => setQ(e.target.value)} />
        </div>
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={async (e) => {
            e.preventDefault();
            const email = new FormData(e.currentTarget).get("email");
            await act(async () => {
              const created = await api<{ url?: string; emailed: boolean }>("/api/admin/users", { method: "POST", json: { email } });
              setLink(created.url ?? null);
              setNotice(created.emailed ? `Invitation sent by email to ${email}.` : null);
            });
          }}
        >
          <Label className="mb-0 min-w-0 flex-1 basis-56">
            <span className="mb-1 block">Create a user (invitation link)</span>
            <Input name="email" type="email" required />
          </Label>
          <Button type="submit">Create link</Button>
        </form>
        {link && <Input className="font-mono" readOnly value={link} data-testid="user-invitation-link" />}
        {notice && (
          <p role="status" className="text-sm" data-testid="admin-mail-notice">
            {notice}
          </p>
        )}
        {resetLink && (
          <Label className="mb-0 block">
            <span className="mb-1 block text-sm">
              Password-reset link for {resetLink.email} (works once, for one hour; pass it on privately)
            </span>
            <Input
              className="font-mono"
              readOnly
              value={resetLink.url}
              data-testid="user-reset-link"
              onFocus={(e) => e.currentTarget.select()}
            />
          </Label>
        )}
        <ScrollX label="Users">
          <table className="w-full text-sm" data-testid="admin-users">
            <tbody>
              {users.map((u) => (
                <tr key={u.id} data-testid={`user-${u.email}`}>
                  <td>
                    {u.name} <span className="text-muted-foreground">{u.email}</span>
                    {u.isAdmin && (
                      <Badge tone="warning" className="ml-2">
                        admin
                      </Badge>
                    )}
                    {u.disabledAt && <Badge className="ml-2">disabled</Badge>}
                    {u.sso?.map((provider) => (
                      <Badge key={provider} className="ml-2" data-testid="user-sso">
                        SSO: {provider}
                      </Badge>
                    ))}
                  </td>
                  <td className="space-x-1 text-right">
                    {u.id !== meId && (
                      <>
                        <Button
                          type="button"
                          variant="secondary"
                          size="sm"
                          onClick={() => act(() => api(`/api/admin/users/${u.id}`, { method: "PATCH", json: { isAdmin: !u.isAdmin } }))}
                        >
                          {u.isAdmin ? "Remove admin" : "Make admin"}
                        </Button>
                        <Button
                          type="button"
                          variant="secondary"
                          size="sm"
                          onClick={() => act(() => api(`/api/admin/users/${u.id}`, { method: "PATCH", json: { disabled: !u.disabledAt } }))}
                        >
                          {u.disabledAt ? "Enable" : "Disable"}
                        </Button>
                        <Button
                          type="button"
                          variant="secondary"
                          size="sm"
                          onClick={() =>
                            act(async () => {
                              const issued = await api<{ email: string; emailed: boolean; url?: string }>(
                                `/api/admin/users/${u.id}/password-reset`,
                                { method: "POST" },
                              );
                              setResetLink(issued.url ? { email: issued.email, url: issued.url } : null);
                              setNotice(issued.emailed ? `Password-reset link sent by email to ${issued.email}.` : null);
                            })
                          }
                        >
                          Reset link
                        </Button>
                        {!!u.sso?.length && (
                          <Button
                            type="button"
                            variant="secondary"
                            size="sm"
                            onClick={() =>
                              act(async () => {
                                const synced = await api<{ changes: string[] }>(`/api/admin/users/${u.id}/sso-sync`, { method: "POST" });
                                setNotice(
                                  synced.changes.length ? `Synced ${u.email}: ${synced.changes.join("; ")}.` : `${u.email} is in sync.`,
                                );
                              })
                            }
                          >
                            Sync now
                          </Button>
                        )}
                        <Button
                          type="button"
                          variant="destructive"
                          size="sm"
                          onClick={() =>
                            confirm(`Delete ${u.email} and their personal data?`) &&
                            act(() => api(`/api/admin/users/${u.id}`, { method: "DELETE" }))
                          }
                        >
                          Delete
                        </Button>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollX>
      </section>
      <section className="space-y-2">
        <h2 className="text-lg font-semibold">Workspaces</h2>
        <ScrollX label="Workspaces">
          <table className="w-full text-sm" data-testid="admin-workspaces">
            <thead>
              <tr className="text-left text-muted-foreground">
                <th scope="col" className="py-1 pr-3 font-medium">
                  Workspace
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Owners
                </th>
                <th scope="col" className="py-1 text-right font-medium">
                  Members
                </th>
              </tr>
            </thead>
            <tbody>
              {workspaces.map((w) => (
                <tr key={w.id} data-testid="admin-workspace" className="border-t border-border align-top">
                  <td className="py-1.5 pr-3">
                    <span className="block">{w.name}</span>
                    <span className="block text-xs text-muted-foreground">{w.personal ? "personal workspace" : `/w/${w.slug}`}</span>
                  </td>
                  <td className="py-1.5 pr-3">
                    {w.owners.length === 0 && <span className="text-muted-foreground">none</span>}
                    {w.owners.map((o) => (
                      <span key={o.email} className="block">
                        {o.name} <span className="break-all text-muted-foreground">{o.email}</span>
                      </span>
                    ))}
                  </td>
                  <td className="py-1.5 text-right">{w.members}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollX>
      </section>
      <AuditLog source="/api/admin/audit" instance />
    </section>
  );
}
