/**
 * One (user, server) as callers see it: `pool.session(userId, server)` returns this handle, and
 * every request on that pair goes through it (tools, resources, prompts, completion, logs, status).
 * It holds no connection itself: each call finds the pool's current entry, so a handle kept across
 * a reconnect or a config change reaches the new connection, exactly as the pool would.
 */
import type {
  CompleteRequest,
  GetPromptResult,
  LoggingLevel,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType as ResourceTemplate,
} from "@modelcontextprotocol/client";
import { boundCompletion, checkCompletionRef } from "./completions";
import { effectiveSettings, type ServerDefinition } from "./config";
import { EngineError } from "./errors";
import type { Connection } from "./connection";
import type { ListKind } from "./discovery";
import type { ManagedServer } from "./managed-server";
import { FORWARDED_METHODS, type ForwardedMethod } from "./placement";
import { requestEvent } from "./request-events";
import { errorOutcome } from "./results";
import { callServerTool } from "./tool-calls";
import type { ServerLogEntry } from "./server-log";
import type { CallOptions, PoolAdmission, RegisteredTool, ServerStatus, ToolCallOutcome } from "./types";

/** What a session needs from its pool (the pool's own entry lookup, admission and naming). */
export interface SessionHost {
  /** The current entry of (user, server), created or replaced when the config changed. */
  entry(userId: string, server: ServerDefinition): ManagedServer;
  /** The entry, after the admission hook approved opening it (throws over a quota). */
  admitted(userId: string, server: ServerDefinition): ManagedServer;
  /** The servers' tools named together (the same array until a listing changes). */
  namedTools(userId: string, servers: ServerDefinition[]): { tools: RegisteredTool[] };
  /** Connect and wait at most the turn wait (see `McpPool.connectWithin`). */
  connectWithin(userId: string, servers: ServerDefinition[]): Promise<ServerStatus[]>;
  /** The per-call admission hook, if any. */
  admission?: PoolAdmission;
  /** How long a page waits for a server still connecting. */
  turnWaitMs: number;
  /** The pool's clock, for call durations. */
  now: () => number;
}

/** The per-(user, server) handle of the pool. */
export class ServerSession {
  constructor(
    private readonly host: SessionHost,
    readonly userId: string,
    readonly server: ServerDefinition,
  ) {}

  /** Synchronous status snapshot; never connects. */
  status(): ServerStatus {
    return this.entry().status();
  }

  /**
   * Hear each list (`tools`, `resources`, `prompts`) the server announces as changed, after the
   * engine re-listed it; returns the function that stops listening. Never connects, and holds no
   * connection open (lib/mcp/managed-server.ts `listChanges`).
   */
  watchListChanges(listener: (kind: ListKind) => void): () => void {
    return this.entry().listChanges.add(listener);
  }

  /**
   * Hear each entry the server logs (`notifications/message`), redacted as the connection's log
   * keeps it; returns the function that stops listening. Never connects, holds no connection open.
   */
  watchLog(listener: (entry: ServerLogEntry) => void): () => void {
    return this.entry().logEntries.add(listener);
  }

  /** Close and connect again now (resets backoff); the outcome is in the returned status. */
  async reconnect(): Promise<ServerStatus> {
    const managed = this.entry();
    await managed.reconnectNow();
    return managed.status();
  }

  /** Registered tools (including wrappers) of this server; connects if needed, throws EngineError. */
  async listTools(): Promise<RegisteredTool[]> {
    await this.host.admitted(this.userId, this.server).ensureConnected();
    return this.host.namedTools(this.userId, [this.server]).tools;
  }

  /**
   * Like `listTools`, for a page a person waits on: waits at most as `connectWithin` does; a server
   * still connecting then fails with `not_connected` saying so (its tools appear once connected).
   */
  async listToolsWithin(): Promise<RegisteredTool[]> {
    await this.requireConnectedWithin();
    return this.host.namedTools(this.userId, [this.server]).tools;
  }

  /** Wait for the server as `connectWithin` does; throws its failure, or `not_connected` while it still connects. */
  async requireConnectedWithin(): Promise<void> {
    const [status] = await this.host.connectWithin(this.userId, [this.server]);
    if (status.state === "connected") return;
    if (status.state === "connecting" || status.state === "reconnecting") {
      throw new EngineError(
        "not_connected",
        `server "${this.server.name}" is still connecting (waited ${Math.round(this.host.turnWaitMs / 1000)} s); its tools appear once it is connected`,
      );
    }
    // Failed, disabled, needs authorization, refused: the entry's own error says why.
    await this.host.admitted(this.userId, this.server).ensureConnected();
  }

  /**
   * Call a server tool: the registered tool the caller already holds, or its raw name. Failures are error
   * outcomes; only a quota refusal throws.
   */
  async callTool(
    tool: string | Pick<RegisteredTool, "rawName" | "serverId">,
    args: Record<string, unknown> = {},
    options: CallOptions = {},
  ): Promise<ToolCallOutcome> {
    if (typeof tool !== "string" && tool.serverId !== this.server.id) {
      return errorOutcome(new EngineError("not_found", `tool "${tool.rawName}" does not belong to server "${this.server.name}"`), 0);
    }
    const managed = this.host.admitted(this.userId, this.server);
    const rawName = typeof tool === "string" ? tool : tool.rawName;
    let release: (() => void) | undefined;
    try {
      const admitted = this.host.admission?.call(this.userId);
      // Awaited only when the host answered a promise: a synchronous slot costs the call no tick.
      release = typeof admitted === "function" || admitted === undefined ? admitted : await admitted;
    } catch (error) {
      // Refused by a quota before anything was sent: still a request the usage records count.
      managed.reportRequest(() => ({ ...requestEvent(this.userId, this.server, "tool", rawName, args, 0, { error }), outcome: "refused" }));
      throw error;
    }
    try {
      return await callServerTool(managed, rawName, args, options, this.host.now);
    } finally {
      release?.();
    }
  }

  /** resources/list (all pages, bounded). */
  async listResources(): Promise<Resource[]> {
    return (await this.entry().relist("resources")).resources;
  }

  /** resources/templates/list (all pages, bounded). */
  async listResourceTemplates(): Promise<ResourceTemplate[]> {
    return (await this.entry().relist("resources")).resourceTemplates;
  }

  /** resources/read. */
  async readResource(uri: string, options: CallOptions = {}): Promise<ReadResourceResult> {
    const timeoutMs = this.timeoutMs();
    return this.reported("resource", uri, { uri }, (managed) => managed.request((c) => c.readResource(uri, { ...options, timeoutMs })));
  }

  /** prompts/list (all pages, bounded). */
  async listPrompts(): Promise<Prompt[]> {
    return (await this.entry().relist("prompts")).prompts;
  }

  /** prompts/get. */
  async getPrompt(name: string, args: Record<string, string> = {}, options: CallOptions = {}): Promise<GetPromptResult> {
    const timeoutMs = this.timeoutMs();
    return this.reported("prompt", name, { name, arguments: args }, (managed) =>
      managed.request((c) => c.getPrompt(name, args, { ...options, timeoutMs })),
    );
  }

  // Time one request and hand it to the pool's `onRequestEnd`, answered or failed.
  private async reported<T>(
    kind: "resource" | "prompt",
    name: string,
    input: unknown,
    op: (managed: ManagedServer) => Promise<T>,
  ): Promise<T> {
    const managed = this.entry();
    const started = this.host.now();
    try {
      const result = await op(managed);
      managed.reportRequest(() => requestEvent(this.userId, this.server, kind, name, input, this.host.now() - started, { result }));
      return result;
    } catch (error) {
      managed.reportRequest(() => requestEvent(this.userId, this.server, kind, name, input, this.host.now() - started, { error }));
      throw error;
    }
  }

  /**
   * completion/complete for a resource-template variable (`ref/resource` with the template as
   * listed) or a prompt argument; unknown references are refused before anything is sent.
   */
  async complete(
    ref: CompleteRequest["params"]["ref"],
    argument: CompleteRequest["params"]["argument"],
    context?: CompleteRequest["params"]["context"],
  ) {
    const timeoutMs = this.timeoutMs();
    return this.entry().request(async (c) => {
      checkCompletionRef(this.server.name, c.client.getServerCapabilities(), c.discovered, ref, argument.name);
      return boundCompletion(await c.complete({ ref, argument, context }, { timeoutMs }));
    });
  }

  /** The server's `instructions` for the host (untrusted text, like every server string); connects if needed. */
  async instructions(): Promise<string | undefined> {
    return this.entry().request(async (c) => c.instructions);
  }

  /** Capabilities and instructions of the live connection, or null when not connected; never connects. */
  details() {
    return this.entry().details();
  }

  /** The current connection's server log: bounded, redacted, oldest first. */
  serverLog(): ServerLogEntry[] {
    return this.entry().log.list();
  }

  /** logging/setLevel on the (user, server) connection. */
  async setLogLevel(level: LoggingLevel): Promise<void> {
    const timeoutMs = this.timeoutMs();
    await this.entry().request((c) => c.setLogLevel(level, { timeoutMs }));
  }

  /**
   * resources/subscribe: `onUpdated` runs for each `notifications/resources/updated` of `uri`.
   * Returns the unsubscribe function (resources/unsubscribe, and the listener removed).
   */
  async subscribeResource(uri: string, onUpdated: (uri: string) => void): Promise<() => Promise<void>> {
    const managed = this.entry();
    const timeoutMs = this.timeoutMs();
    const stop = managed.resourceUpdates.add((updated) => {
      if (updated === uri) onUpdated(updated);
    });
    try {
      await managed.request((c) => c.subscribeResource(uri, { timeoutMs }));
    } catch (error) {
      stop();
      throw error;
    }
    return async () => {
      stop();
      await managed.request((c) => c.unsubscribeResource(uri, { timeoutMs }));
    };
  }

  /**
   * The handshake a relay on another process gets (lib/mcp/placement.ts): what this process's
   * connection negotiated, connecting it first if needed. Resource subscriptions and tasks are left
   * out: their updates and polls would reach this process, not the relay's.
   */
  async forwardedHandshake(): Promise<{ capabilities: Record<string, unknown>; serverInfo: unknown; instructions?: string }> {
    return await this.host.admitted(this.userId, this.server).request(async (c) => {
      local(c, this.server.name);
      const { tasks: _tasks, resources, ...capabilities } = (c.client.getServerCapabilities() ?? {}) as Record<string, unknown>;
      const kept = resources && typeof resources === "object" ? { ...(resources as Record<string, unknown>), subscribe: false } : resources;
      return {
        capabilities: kept === undefined ? capabilities : { ...capabilities, resources: kept },
        serverInfo: c.client.getServerVersion() ?? { name: this.server.name, version: "" },
        ...(c.instructions ? { instructions: c.instructions } : {}),
      };
    });
  }

  /**
   * A request a relay on another process forwarded here: `tools/call` as a call of this process's
   * connection (queued under `parallel`, timed by the server's settings, its progress passed on),
   * the listings and reads (`FORWARDED_METHODS`) as they are. Throws EngineError. Neither is counted
   * in the usage records or the call figures: the process the request came to counts it.
   */
  async forwarded(
    method: string,
    params: Record<string, unknown> | undefined,
    options: Pick<CallOptions, "signal" | "onProgress"> = {},
  ): Promise<unknown> {
    const managed = this.host.admitted(this.userId, this.server);
    const { timeoutMs, maxTotalTimeoutMs } = effectiveSettings(this.server.config);
    if (method === "tools/call") {
      const name = typeof params?.name === "string" ? params.name : "";
      const args = (params?.arguments ?? {}) as Record<string, unknown>;
      return await managed.run((c) => {
        local(c, this.server.name);
        if (!managed.registered().some((t) => t.kind === "tool" && t.rawName === name)) {
          throw new EngineError("not_found", `server "${this.server.name}" has no enabled tool "${name}"`);
        }
        return c.callTool(name, args, { ...options, timeoutMs, maxTotalTimeoutMs });
      }, true);
    }
    if (!(FORWARDED_METHODS as readonly string[]).includes(method)) {
      throw new EngineError("not_found", `server "${this.server.name}": "${method}" is not forwarded between processes`);
    }
    // The relay's own envelope (`_meta`) stays behind: this connection's client writes its own.
    const { _meta: _envelope, ...own } = params ?? {};
    return await managed.request((c) => {
      local(c, this.server.name);
      return c.forward(method as ForwardedMethod, own, { timeoutMs, signal: options.signal });
    });
  }

  private entry(): ManagedServer {
    return this.host.entry(this.userId, this.server);
  }

  private timeoutMs(): number {
    return effectiveSettings(this.server.config).timeoutMs;
  }
}

/** Refuse to forward a request again: a connection that is itself a relay does not run the server here. */
function local(connection: Connection, serverName: string): void {
  if (connection.kind === "relay") throw new EngineError("session_expired", `server "${serverName}" does not run in this process`);
}
