"use client";
/**
 * Which servers are connected, need authorization, or failed (with the reason), above the chat.
 * Live: each status the engine reports arrives over the tab's event stream (no Refresh needed);
 * a (re)connected stream re-reads the list, so nothing missed meanwhile stays stale.
 */
import Link from "next/link";
import { useCallback, useEffect, useState } from "react";
import { listStatuses, type ServerStatusView } from "../api-client";
import { useLiveEvents } from "../events/live-events";
import { useWorkspaceSlug, workspaceHref } from "../workspaces/workspace-scope";

const TONE: Record<string, string> = {
  connected: "bg-emerald-100 text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100",
  needs_authorization: "bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100",
  failed: "bg-red-100 text-red-900 dark:bg-red-900 dark:text-red-100",
};

/** The strip; `onStatuses` hears every list it shows (the chat's authorization banner reads it). */
export function StatusStrip({ onStatuses }: { onStatuses?: (statuses: ServerStatusView[]) => void } = {}) {
  const ws = useWorkspaceSlug();
  const [statuses, setStatuses] = useState<ServerStatusView[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const refresh = useCallback(() => {
    setProblem(null);
    listStatuses(ws).then(setStatuses, (e: Error) => setProblem(e.message));
  }, [ws]);
  useEffect(refresh, [refresh]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reports each new list, not each new callback
  useEffect(() => {
    if (statuses) onStatuses?.(statuses);
  }, [statuses]);
  useLiveEvents((event) => {
    if (event.type === "ready") refresh();
    else if (event.type === "status") {
      setStatuses((current) => current?.map((s) => (s.serverId === event.serverId ? event.status : s)) ?? current);
    }
  });
  return (
    <div
      data-testid="status-strip"
      className="flex flex-wrap items-center gap-2 border-b border-zinc-200 px-4 py-2 text-xs dark:border-zinc-800"
    >
      <span className="text-muted-foreground">Servers:</span>
      {statuses === null && !problem && <span className="text-muted-foreground">checking…</span>}
      {problem && <span className="text-red-700">{problem}</span>}
      {statuses?.length === 0 && (
        <span className="text-muted-foreground">
          none yet —{" "}
          <Link href={workspaceHref(ws, "servers")} className="underline">
            add one
          </Link>
        </span>
      )}
      {statuses?.map((s) => (
        <span
          key={s.serverId}
          data-testid={`server-status-${s.serverName}`}
          data-state={s.state}
          title={s.lastError?.message ?? `${s.counts.tools} tools, ${s.counts.resources} resources, ${s.counts.prompts} prompts`}
          className={`rounded-full px-2 py-0.5 ${TONE[s.state] ?? "bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-200"}`}
        >
          {s.serverName}: {s.stepUp && s.state === "needs_authorization" ? "needs a wider scope" : s.state.replace("_", " ")}
          {s.state === "needs_authorization" && (
            <Link href={workspaceHref(ws, "servers")} className="ml-1 underline">
              authorize
            </Link>
          )}
          {s.state === "failed" && s.lastError && <span className="ml-1">— {s.lastError.message}</span>}
        </span>
      ))}
    </div>
  );
}
