"use client";

import { ScrollX } from "../ui/primitives/scroll-x";
import { useCallback, useEffect, useState } from "react";
import { api } from "../api-client";
import { Button } from "../ui/primitives/button";
import { Input } from "../ui/primitives/input";

interface Entry {
  id: number;
  actorEmail: string | null;
  workspaceId: string | null;
  action: string;
  target: string | null;
  detail: unknown;
  createdAt: string;
}

/** An audit log page with filters (user id, workspace id, action) and "older" pagination. */
export function AuditLog({ source, filters = false }: { source: string; filters?: boolean }) {
  const [entries, setEntries] = useState<Entry[]>([]);
  const [next, setNext] = useState<number | null>(null);
  const [query, setQuery] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(
    async (before?: number) => {
      const params = new URLSearchParams(Object.entries(query).filter(([, v]) => v));
      if (before) params.set("before", String(before));
      try {
        const page = await api<{ entries: Entry[]; nextBefore: number | null }>(`${source}?${params}`);
        setEntries((old) => (before ? [...old, ...page.entries] : page.entries));
        setNext(page.nextBefore);
      } catch (e) {
        setError((e as Error).message);
      }
    },
    [source, query],
  );
  useEffect(() => {
    void load();
  }, [load]);

  return (
    <section className="space-y-2" data-testid="audit-log">
      <h3 className="font-semibold">Audit log</h3>
      {filters && (
        <form
          className="flex gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            const form = new FormData(e.currentTarget);
            setQuery({
              user: String(form.get("user") ?? ""),
              workspace: String(form.get("workspace") ?? ""),
              action: String(form.get("action") ?? ""),
            });
          }}
        >
          <Input name="user" placeholder="user id" aria-label="Filter by user id" />
          <Input name="workspace" placeholder="workspace id" aria-label="Filter by workspace id" />
          <Input name="action" placeholder="action (e.g. member.remove)" aria-label="Filter by action" />
          <Button variant="secondary" type="submit">
            Filter
          </Button>
        </form>
      )}
      {error && <p className="field-error">{error}</p>}
      <ScrollX label="Audit entries">
        <table className="w-full text-xs">
          <tbody>
            {entries.map((e) => (
              <tr key={e.id} data-testid="audit-entry">
                <td className="whitespace-nowrap text-muted-foreground">{new Date(e.createdAt).toLocaleString()}</td>
                <td>{e.actorEmail ?? "—"}</td>
                <td className="font-mono">{e.action}</td>
                <td className="font-mono break-all text-muted-foreground">{e.target}</td>
                <td className="min-w-48 font-mono break-all text-muted-foreground">{e.detail ? JSON.stringify(e.detail) : ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollX>
      {next && (
        <Button type="button" variant="secondary" onClick={() => void load(next)}>
          Older entries
        </Button>
      )}
    </section>
  );
}
