"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { FOCUS_ON_OPEN, useFocusFirst } from "../ui/focus-first";
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

// Why a control is disabled, said next to it (a member's missing controls are explained by the
// role line above the list, app/_components/workspaces/shared-servers-note.tsx).
const STDIO_NOTE = "Only instance administrators change stdio (command) servers.";

/**
 * The Servers page: the workspace's servers with add, edit and delete. `role` decides what is
 * offered: a member sees no Add, Import, Edit or Delete (the role line above says who can), and a stdio
 * server's Edit and Delete are disabled with the reason for anyone but an instance administrator.
 */
export function ServersView({
  initialServers,
  isAdmin,
  role,
}: {
  initialServers: ServerListItem[];
  isAdmin: boolean;
  role: "owner" | "admin" | "member";
}) {
  const manages = role !== "member";
  const opened = useRef<HTMLElement>(null);
  const router = useRouter();
  const pathname = usePathname();
  const ws = useWorkspaceSlug();
  const [servers, setServers] = useState(initialServers);
  const [editing, setEditing] = useState<string | "new" | "import" | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Add server, Import and Edit move the keyboard into the form they open.
  useFocusFirst(opened, editing);

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
    <section ref={opened} className="mx-auto max-w-5xl space-y-4 p-6">
      {/* The actions wrap under the heading on a phone rather than push the page sideways. */}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-xl font-semibold">MCP servers</h1>
        {editing === null && manages && (
          <div className="flex flex-wrap gap-2">
            <Button asChild variant="secondary">
              <Link href={`/w/${encodeURIComponent(ws)}/servers/catalog`} data-testid="open-catalog">
                From the catalog
              </Link>
            </Button>
            <Button type="button" variant="secondary" onClick={() => setEditing("import")} data-testid="open-import">
              Import / export
            </Button>
            <Button type="button" onClick={() => setEditing("new")} data-testid="add-server">
              Add server
            </Button>
          </div>
        )}
      </div>
      {error && <FieldError role="alert">{error}</FieldError>}
      {editing === "new" && (
        <div {...FOCUS_ON_OPEN}>
          <ServerForm isAdmin={isAdmin} onSaved={reload} onCancel={() => setEditing(null)} />
        </div>
      )}
      {editing === "import" && (
        <div {...FOCUS_ON_OPEN}>
          <ImportPanel onImported={reload} onCancel={() => setEditing(null)} />
        </div>
      )}
      {servers.length === 0 && editing === null && (
        <p className="text-sm text-zinc-500" data-testid="no-servers">
          {manages ? `No servers yet. Add a remote MCP server by URL${isAdmin ? ", or a local stdio one" : ""}.` : "No servers yet."}
        </p>
      )}
      <ul className="space-y-3" data-testid="server-list">
        {servers.map((server) =>
          editing === server.id ? (
            <li key={server.id} {...FOCUS_ON_OPEN}>
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
              // The gateway's Connect URL elicitation links here (lib/use-cases/gateway/connect-elicitation.ts).
              id={`server-${server.id}`}
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
              <div className="flex shrink-0 flex-col items-end gap-1">
                <div className="flex gap-2">
                  <Button asChild variant="secondary">
                    <Link href={`${pathname}/${server.id}`} data-testid="inspect-server">
                      Inspect
                    </Link>
                  </Button>
                  {manages && (
                    <>
                      <Button
                        type="button"
                        variant="secondary"
                        onClick={() => setEditing(server.id)}
                        disabled={server.transport === "stdio" && !isAdmin}
                        aria-describedby={server.transport === "stdio" && !isAdmin ? `stdio-note-${server.id}` : undefined}
                      >
                        Edit
                      </Button>
                      <Button
                        type="button"
                        variant="destructive"
                        onClick={() => remove(server)}
                        disabled={server.transport === "stdio" && !isAdmin}
                        aria-describedby={server.transport === "stdio" && !isAdmin ? `stdio-note-${server.id}` : undefined}
                      >
                        Delete
                      </Button>
                    </>
                  )}
                </div>
                {manages && server.transport === "stdio" && !isAdmin && (
                  <p id={`stdio-note-${server.id}`} className="max-w-56 text-right text-xs text-muted-foreground">
                    {STDIO_NOTE}
                  </p>
                )}
              </div>
            </li>
          ),
        )}
      </ul>
    </section>
  );
}
