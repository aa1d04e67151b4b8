"use client";
/**
 * A server's trust on the Servers page: the trusted switch and the lethal-trifecta check (for
 * whoever may manage the server), and the tools held for review — new tools, and tools whose
 * definition changed since it was approved — each with a readable diff (old vs new description
 * and schema) and an Approve button that approves exactly the definition shown.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { definitionText, lineDiff } from "@/lib/trust/diff";
import { apiRequest, serverStatus, workspaceApiPath } from "../api-client";
import { useWorkspaceSlug } from "../workspaces/workspace-scope";
import { useServerStatusEvents } from "../events/live-events";
import { Button } from "../ui/primitives/button";

interface HeldTool {
  toolName: string;
  held: "new" | "changed";
  approved: unknown;
  current: unknown;
  currentHash: string;
}

interface TrustView {
  trusted: boolean;
  trifectaCheck: boolean;
  canManage: boolean;
  held: HeldTool[];
  listError: string | null;
}

function DefinitionDiff({ tool }: { tool: HeldTool }) {
  const lines = lineDiff(definitionText(tool.approved), definitionText(tool.current));
  return (
    <pre data-testid="held-diff" className="max-h-72 overflow-auto rounded bg-zinc-50 p-2 text-xs dark:bg-zinc-950">
      {lines.map((line, i) => (
        <div
          key={i}
          data-op={line.op === "+" ? "added" : line.op === "-" ? "removed" : "same"}
          className={
            line.op === "+" ? "bg-emerald-100 dark:bg-emerald-900" : line.op === "-" ? "bg-red-100 line-through dark:bg-red-900" : ""
          }
        >
          {line.op} {line.text}
        </div>
      ))}
    </pre>
  );
}

/**
 * The panel. It re-lists the server's tools (syncing held definitions) whenever the server is or
 * becomes connected, and never connects it itself: opening a page starts nothing.
 */
export function ServerTrustPanel({ serverId }: { serverId: string }) {
  const ws = useWorkspaceSlug();
  const [view, setView] = useState<TrustView | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const base = workspaceApiPath(ws, `servers/${encodeURIComponent(serverId)}`);
  const load = useCallback(
    (withRefresh: boolean) => {
      apiRequest<TrustView>(`${base}/trust${withRefresh ? "?refresh=1" : ""}`).then(setView, (e: Error) => setProblem(e.message));
    },
    [base],
  );
  const lastState = useRef<string | null>(null);
  // Re-list (syncing held tools) when the server becomes connected; a connected server is not started by it.
  const onStatus = useCallback(
    (state: string) => {
      const becameConnected = state === "connected" && lastState.current !== "connected";
      lastState.current = state;
      if (becameConnected) load(true);
    },
    [load],
  );
  const resync = useCallback(() => {
    load(false);
    lastState.current = null;
    serverStatus(ws, serverId, false).then(
      (status) => onStatus(status.state),
      (e: Error) => setProblem(e.message),
    );
  }, [load, onStatus, ws, serverId]);
  useEffect(resync, [resync]);
  useServerStatusEvents(serverId, (status) => onStatus(status.state), resync);

  const act = async (url: string, method: string, body: unknown) => {
    setProblem(null);
    try {
      await apiRequest(url, { method, body: JSON.stringify(body) });
      load(false);
    } catch (e) {
      setProblem((e as Error).message);
      load(false);
    }
  };

  if (!view) return problem ? <p className="text-xs text-red-700">{problem}</p> : null;
  return (
    <div data-testid="server-trust" className="mt-2 space-y-2 text-xs">
      <div className="flex flex-wrap items-center gap-3">
        <label className="flex items-center gap-1">
          <input
            type="checkbox"
            data-testid="server-trusted"
            checked={view.trusted}
            disabled={!view.canManage}
            onChange={(e) => {
              // Shown at once (the checkbox is controlled); the reload after the PUT confirms or reverts it.
              setView({ ...view, trusted: e.target.checked });
              void act(`${base}/trust`, "PUT", { trusted: e.target.checked });
            }}
          />
          Trusted (its read-only tools run without asking)
        </label>
        <label className="flex items-center gap-1">
          <input
            type="checkbox"
            data-testid="server-trifecta"
            checked={view.trifectaCheck}
            disabled={!view.canManage}
            onChange={(e) => {
              setView({ ...view, trifectaCheck: e.target.checked });
              void act(`${base}/trust`, "PUT", { trifectaCheck: e.target.checked });
            }}
          />
          Ask before calls that could send out data read in the same turn
        </label>
        <Button type="button" variant="link" size="sm" className="h-auto px-0" onClick={() => load(true)}>
          Check tools for changes
        </Button>
        {!view.canManage && (
          // The two settings above are the workspace's: say why they cannot be changed here.
          <span className="text-muted-foreground" data-testid="trust-read-only">
            Owners and admins set these.
          </span>
        )}
      </div>
      {view.listError && <p className="text-red-700">Could not list tools: {view.listError}</p>}
      {problem && (
        <p role="alert" className="text-red-700">
          {problem}
        </p>
      )}
      {view.held.length > 0 && (
        <div
          data-testid="held-tools"
          className="space-y-2 rounded border border-amber-300 bg-amber-50 p-2 dark:border-amber-700 dark:bg-amber-950"
        >
          <p className="font-medium">
            {view.held.length} tool{view.held.length === 1 ? "" : "s"} held for review: the agent does not get{" "}
            {view.held.length === 1 ? "it" : "them"} until approved.
          </p>
          {view.held.map((tool) => (
            <details
              key={tool.toolName}
              data-testid={`held-${tool.toolName}`}
              open
              className="rounded border border-amber-200 bg-white p-2 dark:border-amber-800 dark:bg-zinc-900"
            >
              <summary className="cursor-pointer">
                <code>{tool.toolName}</code> — {tool.held === "new" ? "new tool" : "definition changed"}
              </summary>
              <DefinitionDiff tool={tool} />
              {view.canManage ? (
                <Button
                  type="button"
                  size="sm"
                  data-testid={`approve-${tool.toolName}`}
                  className="mt-1"
                  onClick={() => void act(`${base}/tools/review`, "POST", { toolName: tool.toolName, hash: tool.currentHash })}
                >
                  Approve this definition
                </Button>
              ) : (
                <p className="text-zinc-500">Only the person who added this server or an administrator can approve it.</p>
              )}
            </details>
          ))}
        </div>
      )}
    </div>
  );
}
