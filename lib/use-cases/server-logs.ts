/**
 * A server's log for the inspector (`GET /api/servers/:id/logs`): the server's own
 * `notifications/message` entries, the stdio child's stderr tail and the connection events, all
 * redacted where they are kept, merged in time order (stderr lines, which carry no time, last).
 */
import "server-only";
import type { LoggingLevel } from "@modelcontextprotocol/client";
import { getDb } from "../../db/client";
import { type LogLine, connectionLog } from "../runtime/connection-log";
import { appPool, workspaceServerDefinition } from "../runtime/engine";
import type { Caller } from "./server-ops";

/** Lines of stderr returned at most. */
const MAX_STDERR_LINES = 200;

/** The caller's log of one server (never connects). */
export async function serverLogLines(caller: Caller, serverId: string): Promise<LogLine[]> {
  const server = await workspaceServerDefinition(getDb(), caller, serverId);
  const pool = appPool();
  const own: LogLine[] = pool
    .session(caller.id, server)
    .serverLog()
    .map((entry) => ({
      time: entry.at,
      level: entry.level,
      source: "server",
      text: entry.logger ? `[${entry.logger}] ${entry.text}` : entry.text,
    }));
  const timed = [...own, ...connectionLog().list(caller.id, serverId)].sort((a, b) => (a.time ?? 0) - (b.time ?? 0));
  const stderr: LogLine[] = pool
    .session(caller.id, server)
    .status()
    .stderrTail.split("\n")
    .filter((line) => line.trim() !== "")
    .slice(-MAX_STDERR_LINES)
    .map((text) => ({ time: null, level: "info", source: "stderr", text }));
  return [...timed, ...stderr];
}

/** logging/setLevel on the caller's connection (connects if needed: the person asked for it). */
export async function setServerLogLevel(caller: Caller, serverId: string, level: LoggingLevel): Promise<{ level: LoggingLevel }> {
  await appPool()
    .session(caller.id, await workspaceServerDefinition(getDb(), caller, serverId))
    .setLogLevel(level);
  return { level };
}
