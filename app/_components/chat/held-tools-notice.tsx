"use client";
/**
 * A notice under the chat's status strip naming tools held for review (new, or changed since a
 * person approved them): the agent does not get them, and the user should know why. Refreshed
 * whenever a turn ends, since a turn is when servers are listed again.
 */
import { useEffect, useState } from "react";
import { isAccessCode } from "../access/access-events";
import { ApiError, apiRequest, workspaceApiPath } from "../api-client";
import { useWorkspaceSlug, workspaceHref } from "../workspaces/workspace-scope";

interface HeldEntry {
  serverId: string;
  serverName: string;
  toolName: string;
  held: "new" | "changed";
}

/** The notice; nothing when no tool is held. */
export function HeldToolsNotice({ busy }: { busy: boolean }) {
  const ws = useWorkspaceSlug();
  const [held, setHeld] = useState<HeldEntry[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    if (busy) return;
    apiRequest<{ held: HeldEntry[] }>(workspaceApiPath(ws, "tools/held")).then(
      (body) => {
        setHeld(body.held);
        setProblem(null);
      },
      // Lost access is said once, by the page's notice (app/_components/access/access-notice.tsx).
      (e: Error) => setProblem(e instanceof ApiError && isAccessCode(e.code) ? null : e.message),
    );
  }, [ws, busy]);
  if (problem) return <p className="px-4 py-1 text-xs text-red-700">Held tools: {problem}</p>;
  if (held.length === 0) return null;
  return (
    <div
      data-testid="held-tools-notice"
      role="status"
      className="border-b border-amber-300 bg-amber-50 px-4 py-1 text-xs text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
    >
      Held for review (not offered to the agent):{" "}
      {held.map((h, i) => (
        <span key={`${h.serverId}:${h.toolName}`}>
          {i > 0 && ", "}
          <code>
            {h.serverName}/{h.toolName}
          </code>{" "}
          ({h.held === "new" ? "new" : "changed"})
        </span>
      ))}{" "}
      <a href={workspaceHref(ws, "servers")} className="underline">
        Review on the Servers page
      </a>
    </div>
  );
}
