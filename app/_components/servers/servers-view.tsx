"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useState } from "react";
import { configToForm } from "./form-model";
import { ServerForm } from "./server-form";
import { ServerStatusPanel } from "./server-status";
import { OAuthConnect } from "./oauth-connect";
import { ApiError, deleteServer, listServers, type ServerView } from "../api-client";
import { ServerTrustPanel } from "./server-trust";
import { ImportPanel } from "./import-panel";
import { Badge } from "../ui/primitives/badge";
import { Button } from "../ui/primitives/button";
import { FieldError } from "../ui/primitives/label";
import { useWorkspaceSlug } from "../workspaces/workspace-scope";

/** A server as listed by `GET /api/servers`. */
export type ServerListItem = ServerView;

/** The Servers page: the workspace's servers with add, edit and delete. */
export function ServersView({ initialServers, isAdmin }: { initialServers: ServerListItem[]; isAdmin: boolean }) {
  const router = useRouter();
  const pathname = usePathname();
  const ws = useWorkspaceSlug();
  const [servers, setServers] = useState(initialServers);
  const [editing, setEditing] = useState<string | "new" | "import" | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function reload() {
    // As before: a failed reload keeps the list shown; the next action or page load shows the truth.
    const listed = await listServers(ws).catch((error: unknown) => {
      if (error instanceof ApiError) return null;
      throw error;
    });
    if (listed) setServers(listed);
    setEditing(null);
    router.refresh();
  }

  async function remove(server: ServerListItem) {
    if (!confirm(`Delete server "${server.name}"?`)) return;
    try {
      await deleteServer(ws, server.id);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setError(error.message);
    }
    await reload();
  }

  return (
    <section className="mx-auto max-w-5xl space-y-4 p-6">
      <div className="flex items-center justify-between">
        <h1 className="text-xl font-semibold">MCP servers</h1>
        {editing === null && (
          <div className="flex gap-2">
            <Button type="button" variant="secondary" onClick={() => setEditing("import")} data-testid="open-import">
              Import / export
            </Button>
            <Button type="button" onClick={() => setEditing("new")}>
              Add server
            </Button>
          </div>
        )}
      </div>
      {error && <FieldError role="alert">{error}</FieldError>}
      {editing === "new" && <ServerForm isAdmin={isAdmin} onSaved={reload} onCancel={() => setEditing(null)} />}
      {editing === "import" && <ImportPanel onImported={reload} onCancel={() => setEditing(null)} />}
      {servers.length === 0 && editing === null && (
        <p className="text-sm text-zinc-500" data-testid="no-servers">
          No servers yet. Add a remote MCP server by URL{isAdmin ? ", or a local stdio one" : ""}.
        </p>
      )}
      <ul className="space-y-3" data-testid="server-list">
        {servers.map((server) =>
          editing === server.id ? (
            <li key={server.id}>
              <ServerForm
                serverId={server.id}
                initial={configToForm(server.name, server.config)}
                original={server.config}
                isAdmin={isAdmin}
                onSaved={reload}
                onCancel={() => setEditing(null)}
              />
            </li>
          ) : (
            <li
              key={server.id}
              data-testid={`server-${server.name}`}
              className="flex items-start justify-between rounded-lg border border-border bg-surface p-4"
            >
              <div className="min-w-0">
                <div className="flex items-center gap-2">
                  <span className="font-medium">{server.name}</span>
                  <Badge>{server.transport}</Badge>
                  {server.config.enabled === false && <Badge>disabled</Badge>}
                </div>
                <code className="mt-1 block truncate text-xs text-zinc-500">
                  {server.transport === "http"
                    ? String(server.config.url)
                    : [server.config.command, ...((server.config.args as string[]) ?? [])].join(" ")}
                </code>
                {server.launch && (
                  <details className="mt-1 text-xs" open={server.launch.problems.length > 0}>
                    <summary className="cursor-pointer text-zinc-500">How it runs</summary>
                    <pre className="mt-1 whitespace-pre-wrap rounded bg-zinc-100 p-2 dark:bg-zinc-800" data-testid="launch-description">
                      {server.launch.text}
                    </pre>
                  </details>
                )}
                {server.config.enabled !== false && (
                  <ServerStatusPanel
                    key={JSON.stringify(server.config)}
                    serverId={server.id}
                    authSlot={(state) =>
                      // A shared server is connected for everyone from the note above the list (owners/admins).
                      server.credentials !== "shared" && (server.config.auth === "oauth" || state === "needs_authorization") ? (
                        <OAuthConnect serverId={server.id} state={state} />
                      ) : null
                    }
                  />
                )}
                {server.config.enabled !== false && <ServerTrustPanel serverId={server.id} />}
              </div>
              <div className="flex shrink-0 gap-2">
                <Button asChild variant="secondary">
                  <Link href={`${pathname}/${server.id}`} data-testid="inspect-server">
                    Inspect
                  </Link>
                </Button>
                <Button
                  type="button"
                  variant="secondary"
                  onClick={() => setEditing(server.id)}
                  disabled={server.transport === "stdio" && !isAdmin}
                >
                  Edit
                </Button>
                <Button
                  type="button"
                  variant="destructive"
                  onClick={() => remove(server)}
                  disabled={server.transport === "stdio" && !isAdmin}
                >
                  Delete
                </Button>
              </div>
            </li>
          ),
        )}
      </ul>
    </section>
  );
}
