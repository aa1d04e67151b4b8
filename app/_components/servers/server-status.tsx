"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError, listServerTools, reconnectServer, serverStatus } from "../api-client";
import type { RegisteredTool, ServerStatus } from "@/lib/mcp/types";
import { OAUTH_CHANGED_EVENT } from "./oauth-connect";
import { useServerStatusEvents } from "../events/live-events";
import { Badge } from "../ui/primitives/badge";
import { Button } from "../ui/primitives/button";
import { useWorkspaceSlug } from "../workspaces/workspace-scope";

const STATE_TONE: Record<string, "neutral" | "primary" | "success" | "warning" | "danger"> = {
  connected: "success",
  connecting: "primary",
  reconnecting: "warning",
  needs_authorization: "primary",
  failed: "danger",
  disabled: "neutral",
  idle: "neutral",
};

// One clear action per state: Start when idle, Connect (the auth slot) when it needs authorization,
// Reconnect when it failed or is connected (a stale session); nothing while it is connecting.
const RECONNECTS = new Set(["failed", "connected", "reconnecting"]);

/**
 * Live status of one server for the signed-in user (pushed over the tab's event stream), its tools,
 * and Reconnect. Showing it never connects: a server starts when saved, used, or on Start.
 */
export function ServerStatusPanel({ serverId, authSlot }: { serverId: string; authSlot?: (state: string) => React.ReactNode }) {
  const ws = useWorkspaceSlug();
  const [status, setStatus] = useState<ServerStatus | null>(null);
  const [tools, setTools] = useState<RegisteredTool[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  // A status pushed while a read was under way is newer than what the read returns: the read
  // must not overwrite it (else a "connected" push is lost behind a slow "connecting" answer).
  const pushes = useRef(0);
  const load = useCallback(
    async (connect: boolean) => {
      setBusy(true);
      const before = pushes.current;
      try {
        const body = await serverStatus(ws, serverId, connect);
        setError(null);
        if (pushes.current === before) setStatus(body);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        setError(error.message);
      } finally {
        setBusy(false);
      }
    },
    [ws, serverId],
  );

  useEffect(() => {
    void load(false);
  }, [load]);

  useServerStatusEvents(
    serverId,
    (pushed) => {
      pushes.current++;
      setStatus(pushed);
    },
    () => void load(false),
  );

  // Connect/Disconnect change what this server can do: show the new state without a page reload.
  useEffect(() => {
    const onChange = (event: Event) => {
      if ((event as CustomEvent<{ serverId: string }>).detail?.serverId === serverId) void load(false);
    };
    window.addEventListener(OAUTH_CHANGED_EVENT, onChange);
    return () => window.removeEventListener(OAUTH_CHANGED_EVENT, onChange);
  }, [load, serverId]);

  async function reconnect() {
    setBusy(true);
    try {
      setStatus(await reconnectServer(ws, serverId));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setError(error.message);
    } finally {
      setBusy(false);
    }
  }

  async function showTools() {
    if (tools) return setTools(null);
    try {
      setTools(await listServerTools(ws, serverId));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setError(error.message);
    }
  }

  const state = status?.state ?? "…";
  // A step-up is an authorization with a known reason: say it, the message below names the scope.
  const label = status?.stepUp && state === "needs_authorization" ? "needs a wider scope" : state.replace("_", " ");
  return (
    <div className="mt-3 space-y-2 text-xs" data-testid={`status-${serverId}`}>
      <div className="flex flex-wrap items-center gap-2">
        <Badge data-testid="server-state" tone={STATE_TONE[state] ?? "neutral"}>
          {label}
        </Badge>
        {status && status.state === "connected" && (
          <span className="text-zinc-500" data-testid="server-counts">
            {status.counts.tools} tools · {status.counts.resources} resources · {status.counts.prompts} prompts
            {status.metrics.calls > 0 &&
              ` · ${status.metrics.calls} calls, ${status.metrics.errors} errors, p50 ${status.metrics.p50Ms?.toFixed(0)} ms / p95 ${status.metrics.p95Ms?.toFixed(0)} ms`}
            {status.sampling.requests > 0 &&
              ` · sampling: ${status.sampling.requests} requests, ${status.sampling.errors + status.sampling.rejected} refused or failed, ${status.sampling.inputTokens + status.sampling.outputTokens} tokens`}
          </span>
        )}
        {status?.limits && (status.limits.lastRefusal || status.limits.droppedNotifications > 0) && (
          <span className="text-amber-700 dark:text-amber-400" data-testid="server-limits" title={status.limits.lastRefusal ?? undefined}>
            limits: {status.limits.refusedMessages} messages refused, {status.limits.droppedNotifications} notifications dropped,{" "}
            {status.limits.refusedServerRequests} requests to you refused, stream opens {status.limits.streamOpens.opens}/
            {status.limits.streamOpens.max}
            {status.limits.lastRefusal && ` (last: ${status.limits.lastRefusal})`}
          </span>
        )}
        {state === "idle" && (
          <Button type="button" variant="secondary" size="sm" onClick={() => load(true)} disabled={busy}>
            Start
          </Button>
        )}
        {RECONNECTS.has(state) && (
          <Button type="button" variant={state === "failed" ? "primary" : "secondary"} size="sm" onClick={reconnect} disabled={busy}>
            Reconnect
          </Button>
        )}
        {state === "connected" && (
          <Button type="button" variant="secondary" size="sm" onClick={showTools}>
            {tools ? "Hide tools" : "Tools"}
          </Button>
        )}
        {(state === "needs_authorization" || state === "connected") && authSlot?.(state)}
      </div>
      {status?.lastError && (
        // Needing authorization is a step to take, not a failure: said in the tone of a notice.
        <p
          className={
            state === "needs_authorization"
              ? "rounded bg-amber-50 p-2 text-amber-900 dark:bg-amber-950 dark:text-amber-200"
              : "rounded bg-red-50 p-2 text-red-700 dark:bg-red-950 dark:text-red-300"
          }
          data-testid="server-error"
        >
          {status.lastError.message}
        </p>
      )}
      {status && status.refusedTools?.length > 0 && (
        <ul className="rounded bg-amber-50 p-2 text-amber-800 dark:bg-amber-950 dark:text-amber-300" data-testid="server-refused-tools">
          {status.refusedTools.map((refused, index) => (
            <li key={`${refused.name}-${index}`}>
              Tool <code>{refused.name}</code> refused: {refused.reason}
            </li>
          ))}
        </ul>
      )}
      {error && <p className="field-error">{error}</p>}
      {tools && (
        <ul className="divide-y divide-border rounded border border-border" data-testid="server-tools">
          {[...tools.filter((t) => t.kind === "tool"), ...tools.filter((t) => t.kind !== "tool")].map((tool) => (
            <li key={tool.name} className="p-2">
              <code className="font-medium">{tool.name}</code>
              {tool.kind !== "tool" && (
                <Badge className="ml-2" title="Added by Switchboard so the agent can list and read">
                  helper
                </Badge>
              )}
              {tool.title && <span className="ml-2 text-zinc-600">{tool.title}</span>}
              {tool.annotations?.readOnlyHint && (
                <Badge tone="success" className="ml-2">
                  read-only
                </Badge>
              )}
              {tool.annotations?.destructiveHint && (
                <Badge tone="danger" className="ml-2">
                  destructive
                </Badge>
              )}
              {tool.description && <p className="mt-0.5 text-zinc-500">{tool.description}</p>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
