/**
 * The upstream's log relayed to a gateway client (docs/gateway.md#logging): each entry the server
 * sends on the member's own connection (`notifications/message`), as the connection's server log
 * keeps it — redacted of the config's secrets and anything credential-like, cut to 2,000 characters
 * (lib/mcp/server-log.ts) — reaches the client at the level it asked for.
 *
 * - During a tool call through this proxy the entry goes with that call (`ctx.mcpReq.log`: on the
 *   call's own stream, filtered by the session's `logging/setLevel` at 2025-11-25, or by the log
 *   level a 2026-07-28 request carries — none, nothing).
 * - Otherwise, on a 2025-11-25 session, on its standalone stream (`sendLoggingMessage`, filtered by
 *   the session's level). A 2026-07-28 request has no session to send it on later.
 */
import "server-only";
import type { LoggingLevel, Server, ServerContext } from "@modelcontextprotocol/server";
import type { ServerLogEntry } from "../../mcp";
import type { Caller } from "../server-ops";
import { watchServerLog } from "../server-ops";
import { onClosed } from "./list-changes";

/** One server whose log a proxy relays, and the logger name its entries carry when several are relayed. */
export interface LoggedServer {
  serverId: string;
  /** Set on the workspace endpoint: the entry's logger is prefixed with the server's name. */
  prefix?: string;
}

/**
 * The log relay of one proxy: a 2025-11-25 session listens for its whole life (entries between
 * calls go on its standalone stream); a 2026-07-28 request's proxy only while a call is under way,
 * so nothing stays registered after the request.
 */
export class GatewayLog {
  private readonly calls: ServerContext[] = [];
  private readonly watching: Promise<() => void>[] = [];

  constructor(
    private readonly server: Server,
    private readonly caller: Caller,
    private readonly servers: LoggedServer[],
    private readonly session: boolean,
  ) {
    if (!session) return;
    void this.watch();
    onClosed(server, () => this.unwatch());
  }

  /** Run `call` with `ctx` as a call under way: entries logged meanwhile go on its stream. */
  async during<T>(ctx: ServerContext, call: () => Promise<T>): Promise<T> {
    const first = this.calls.length === 0;
    this.calls.push(ctx);
    try {
      // Listening before the call starts, so its first entries are not missed.
      if (first && !this.session) await Promise.all(this.watch());
      return await call();
    } finally {
      this.calls.splice(this.calls.indexOf(ctx), 1);
      if (this.calls.length === 0 && !this.session) this.unwatch();
    }
  }

  /** Send one entry to the client, with the newest call under way, else on the session's stream. */
  private relay(entry: ServerLogEntry, prefix?: string): void {
    const logger = prefix ? (entry.logger ? `${prefix}/${entry.logger}` : prefix) : entry.logger;
    const call = this.calls.at(-1);
    const level = entry.level as LoggingLevel;
    if (!call && !this.session) return;
    const sent = call
      ? call.mcpReq.log(level, entry.text, logger)
      : this.server.sendLoggingMessage({ level, data: entry.text, ...(logger ? { logger } : {}) }, this.sessionId());
    // The client went away meanwhile: nobody to tell.
    void sent.catch(() => undefined);
  }

  // A server the member cannot reach now is skipped: nothing to relay from it.
  private watch(): Promise<() => void>[] {
    const started = this.servers.map(({ serverId, prefix }) =>
      watchServerLog(this.caller, serverId, (entry) => this.relay(entry, prefix)).catch(() => () => undefined),
    );
    this.watching.push(...started);
    return started;
  }

  private unwatch(): void {
    for (const stop of this.watching.splice(0)) void stop.then((run) => run());
  }

  /** The 2025-11-25 session the proxy serves (the SDK keeps each session's level under its id). */
  private sessionId(): string | undefined {
    return (this.server.transport as { sessionId?: string } | undefined)?.sessionId;
  }
}
