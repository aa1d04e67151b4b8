/**
 * Connection events per (user, server) for the inspector's log pane: each state change the pool
 * reports (connecting, connected, reconnecting with attempt, failed with its redacted reason),
 * bounded per connection key, oldest dropped first. Fed from the pool's status hook.
 */
import type { ServerStatus } from "../mcp";
import { singleton } from "../singleton";

/** One entry of a server's log as the API returns it (`GET /api/servers/:id/logs`). */
export interface LogLine {
  /** Epoch ms; null for stderr lines, which carry no time of their own. */
  time: number | null;
  level: string;
  source: "server" | "stderr" | "connection";
  text: string;
}

/** Connection events kept per (user, server). */
export const MAX_CONNECTION_EVENTS = 100;

const LEVEL: Record<string, string> = {
  connected: "info",
  connecting: "info",
  idle: "info",
  disabled: "info",
  reconnecting: "warning",
  needs_authorization: "warning",
  failed: "error",
};

function describe(status: ServerStatus): string {
  const reason = status.lastError ? `: ${status.lastError.message}` : "";
  if (status.state === "reconnecting" && status.reconnect) {
    return `reconnecting (attempt ${status.reconnect.attempt}, next try at ${new Date(status.reconnect.at).toISOString()})${reason}`;
  }
  if (status.state === "connected") return `connected over ${status.transport ?? "?"}${status.pid ? ` (pid ${status.pid})` : ""}`;
  return `${status.state.replace("_", " ")}${status.state === "failed" || status.state === "needs_authorization" ? reason : ""}`;
}

class ConnectionLog {
  private readonly events = new Map<string, { state: string; lines: LogLine[] }>();

  /** Keep a state change (repeated statuses of one state, such as call metrics, are not events). */
  record(status: ServerStatus, now = Date.now()): void {
    const key = `${status.userId}\u0000${status.serverId}`;
    const entry = this.events.get(key) ?? { state: "", lines: [] };
    this.events.set(key, entry);
    const marker = `${status.state}:${status.reconnect?.attempt ?? ""}`;
    if (entry.state === marker) return;
    entry.state = marker;
    entry.lines.push({ time: now, level: LEVEL[status.state] ?? "info", source: "connection", text: describe(status) });
    if (entry.lines.length > MAX_CONNECTION_EVENTS) entry.lines.splice(0, entry.lines.length - MAX_CONNECTION_EVENTS);
  }

  /** The events of one (user, server), oldest first. */
  list(userId: string, serverId: string): LogLine[] {
    return [...(this.events.get(`${userId}\u0000${serverId}`)?.lines ?? [])];
  }

  /** Forget a server's events for every user (it was deleted). */
  forgetServer(serverId: string): void {
    for (const key of this.events.keys()) if (key.endsWith(`\u0000${serverId}`)) this.events.delete(key);
  }
}

/** The process-wide connection log. */
export function connectionLog(): ConnectionLog {
  return singleton("host.connectionLog", () => new ConnectionLog());
}
