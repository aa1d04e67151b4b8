"use client";
/**
 * The server inspector: who the server says it is (name, version, protocol, capabilities,
 * instructions, icons), its live status, and tabs to try tools, resources and prompts by hand
 * and to read its log. Opening it never starts the server; the tabs that need it say so.
 */
import Link from "next/link";
import { useCallback, useEffect, useState } from "react";
import type { ServerView } from "../api-client";
import { useServerStatusEvents } from "../events/live-events";
import { CatalogUpdatePanel } from "../servers/catalog-update";
import { ServerStatusPanel } from "../servers/server-status";
import { useWorkspaceSlug } from "../workspaces/workspace-scope";
import { getServerInfo, type ServerInfoView } from "./inspector-api";
import { LogsTab } from "./logs-tab";
import { PromptsTab } from "./prompts-tab";
import { ResourcesTab } from "./resources-tab";
import { ToolsTab } from "./tools-tab";

/** The inspector's tabs (`?tab=`). */
export type InspectorTab = "tools" | "resources" | "prompts" | "logs";

/** The whole inspector page. */
export function InspectorView({
  server,
  tab,
  uri,
  serversHref,
}: {
  server: ServerView;
  tab: InspectorTab;
  uri: string | null;
  serversHref: string;
}) {
  const ws = useWorkspaceSlug();
  const [info, setInfo] = useState<ServerInfoView | null>(null);
  const [pushedState, setPushedState] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const load = useCallback(() => {
    getServerInfo(ws, server.id).then(
      (next) => {
        setInfo(next);
        setPushedState(null);
      },
      (e: Error) => setProblem(e.message),
    );
  }, [ws, server.id]);
  useEffect(load, [load]);
  // A new connection brings new capabilities and instructions; the pushed state wins over a read
  // that was answered before it (a slow "connecting" must not hide a pushed "connected").
  useServerStatusEvents(
    server.id,
    (status) => {
      setPushedState(status.state);
      if (status.state !== info?.status.state) load();
    },
    load,
  );
  const connected = (pushedState ?? info?.status.state) === "connected";
  const serverInfo = info?.status.serverInfo;
  return (
    <section className="mx-auto max-w-5xl space-y-4 p-6" data-testid="inspector">
      <Link href={serversHref} className="text-xs text-zinc-500 underline">
        ← Servers
      </Link>
      <header className="flex items-start gap-3">
        {info?.icons[0] && (
          // The app's own icon route (lib/use-cases/server-icons.ts): the browser loads nothing from the server.
          // biome-ignore lint/performance/noImgElement: a small same-origin icon; next/image adds nothing here.
          <img src={info.icons[0].src} alt="" className="h-10 w-10 rounded" data-testid="server-icon" />
        )}
        <div className="min-w-0">
          <h1 className="text-xl font-semibold" data-testid="inspector-title">
            {server.name}
          </h1>
          <p className="text-xs text-zinc-500" data-testid="server-identity">
            {serverInfo
              ? `${serverInfo.title ?? serverInfo.name} ${serverInfo.version}`
              : "Not connected yet: the server's own name and version appear once it is."}
            {info?.status.protocol && ` · protocol ${info.status.protocol.version ?? info.status.protocol.era}`}
            {info?.status.transport && ` · ${info.status.transport}`}
          </p>
          {info?.capabilities && (
            <p className="mt-1 flex flex-wrap gap-1 text-xs" data-testid="server-capabilities">
              {Object.keys(info.capabilities).map((name) => (
                <span key={name} className="rounded bg-zinc-100 px-1.5 py-0.5 dark:bg-zinc-800">
                  {name}
                </span>
              ))}
            </p>
          )}
        </div>
      </header>
      <ServerStatusPanel serverId={server.id} />
      {server.catalog && <CatalogUpdatePanel serverId={server.id} />}
      {problem && <p className="field-error">{problem}</p>}
      {info?.instructions && (
        <details className="rounded border border-zinc-200 p-2 text-xs dark:border-zinc-800" data-testid="server-instructions">
          <summary className="cursor-pointer text-zinc-600">Instructions the server gives (its own words, untrusted)</summary>
          <pre className="mt-1 whitespace-pre-wrap">{info.instructions}</pre>
        </details>
      )}
      <nav className="flex gap-1 border-b border-zinc-200 dark:border-zinc-800" aria-label="Inspector">
        {(["tools", "resources", "prompts", "logs"] as const).map((name) => (
          <Link
            key={name}
            href={`?tab=${name}`}
            data-testid={`tab-${name}`}
            aria-current={tab === name ? "page" : undefined}
            className={`px-3 py-1.5 text-sm capitalize ${tab === name ? "border-b-2 border-zinc-900 font-medium dark:border-zinc-100" : "text-zinc-500"}`}
          >
            {name}
          </Link>
        ))}
      </nav>
      {tab === "tools" && <ToolsTab serverId={server.id} connected={connected} />}
      {tab === "resources" && <ResourcesTab serverId={server.id} connected={connected} initialUri={uri} />}
      {tab === "prompts" && <PromptsTab serverId={server.id} connected={connected} />}
      {tab === "logs" && <LogsTab serverId={server.id} />}
    </section>
  );
}
