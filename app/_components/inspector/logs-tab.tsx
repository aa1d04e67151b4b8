"use client";
/**
 * The log pane: the server's `notifications/message`, stdio stderr and connection events
 * (redacted by the host), refreshed every two seconds while open, with the level the server
 * should send from (`logging/setLevel`).
 */
import { useCallback, useEffect, useState } from "react";
import { ApiError } from "../api-client";
import { Label } from "../ui/primitives/label";
import { NativeSelect } from "../ui/primitives/select";
import { getLogs, type LogLine, setLogLevel } from "./inspector-api";
import { useWorkspaceSlug } from "../workspaces/workspace-scope";

const LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];
const REFRESH_MS = 2000;

/** The Logs tab. */
export function LogsTab({ serverId }: { serverId: string }) {
  const ws = useWorkspaceSlug();
  const [lines, setLines] = useState<LogLine[]>([]);
  const [level, setLevel] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const load = useCallback(() => {
    getLogs(ws, serverId).then(setLines, (e: Error) => setProblem(e.message));
  }, [ws, serverId]);
  useEffect(() => {
    load();
    const timer = setInterval(load, REFRESH_MS);
    return () => clearInterval(timer);
  }, [load]);

  async function changeLevel(next: string) {
    setLevel(next);
    try {
      await setLogLevel(ws, serverId, next);
      setProblem(null);
      load();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setProblem(error.message);
    }
  }

  return (
    <div className="space-y-2 text-sm">
      <Label className="mb-0 flex items-center gap-2 text-sm font-normal text-foreground">
        Level the server sends from
        <NativeSelect className="w-auto" value={level} onChange={(e) => void changeLevel(e.target.value)} data-testid="log-level">
          <option value="" disabled>
            (server default)
          </option>
          {LEVELS.map((l) => (
            <option key={l}>{l}</option>
          ))}
        </NativeSelect>
      </Label>
      {problem && <p className="field-error">{problem}</p>}
      <ol className="max-h-[32rem] overflow-auto rounded border border-border font-mono text-xs" data-testid="log-lines">
        {lines.length === 0 && <li className="p-2 text-zinc-500">Nothing logged yet.</li>}
        {lines.map((line, index) => (
          <li key={index} className="border-b border-zinc-100 px-2 py-0.5 dark:border-zinc-900" data-source={line.source}>
            <span className="text-zinc-500">{line.time ? new Date(line.time).toLocaleTimeString() : "--:--:--"}</span>{" "}
            <span className="text-zinc-500">{line.source}</span>{" "}
            <span className={line.level === "error" ? "text-red-700" : ""}>{line.level}</span>{" "}
            <span className="whitespace-pre-wrap">{line.text}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}
