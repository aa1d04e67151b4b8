/**
 * The connection pool (docs/architecture.md#connection-lifecycle): long-lived connections keyed by (user, server), idempotent
 * discovery where one failing server never blocks others, reload of changed configs only, and the
 * toolset the agent sees with a reverse map from registered name to (server, raw tool).
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
import { effectiveSettings, type ServerDefinition } from "./config";
import { configHash } from "./config-hash";
import { EngineError } from "./errors";
import { boundCompletion, checkCompletionRef } from "./completions";
import { ManagedServer } from "./managed-server";
import { resolvePoolOptions, type ResolvedPoolOptions } from "./pool-options";
import { nameTools, type UnnamedTool } from "./registry";
import { errorOutcome } from "./results";
import type { CallOptions, PoolOptions, RegisteredTool, ServerStatus, ToolCallOutcome } from "./types";
import { callWrapper } from "./wrapper-calls";
import type { ServerLogEntry } from "./server-log";

/** Pool of MCP connections for all users of this process. */
export class McpPool {
  private readonly entries = new Map<string, ManagedServer>();
  // Named tools per user and server set, rebuilt only when a server's listing changes (each listing
  // is a new array): every call and turn then gets the same objects, so what callers derive from a
  // tool (its trust hash, lib/trust) is computed once per listing, not once per request.
  private readonly named = new Map<string, Map<string, { parts: UnnamedTool[][]; named: NamedTools }>>();
  private readonly options: ResolvedPoolOptions;

  /** See `PoolOptions` for each option's default. */
  constructor(options: PoolOptions = {}) {
    this.options = resolvePoolOptions(options);
  }

  /** Connect every enabled server not yet connected (failed ones are retried) and report all statuses. */
  async discover(userId: string, servers: ServerDefinition[]): Promise<ServerStatus[]> {
    return (await this.connectAll(userId, servers)).map((m) => m.status());
  }

  /** Synchronous status snapshot; never connects. */
  status(userId: string, server: ServerDefinition): ServerStatus {
    return this.entry(userId, server).status();
  }

  /** Close and connect again now (resets backoff); the outcome is in the returned status. */
  async reconnect(userId: string, server: ServerDefinition): Promise<ServerStatus> {
    const managed = this.entry(userId, server);
    await managed.reconnectNow();
    return managed.status();
  }

  /** Registered tools (including wrappers) of one server; connects if needed, throws EngineError. */
  async listTools(userId: string, server: ServerDefinition): Promise<RegisteredTool[]> {
    const managed = this.admitted(userId, server);
    await this.connected(managed);
    return this.namedTools(userId, [server]).tools;
  }

  /**
   * All connected servers' tools for the agent, named together so names are unique across servers.
   * Waits at most `turnWaitMs` for servers still connecting: a slow server joins a later turn.
   */
  async toolset(userId: string, servers: ServerDefinition[]): Promise<RegisteredTool[]> {
    // Every server already connected with this config (the usual case on every call and turn):
    // nothing to connect or wait for.
    const ready = servers.every((server) => {
      const managed = this.entries.get(keyOf(userId, server.id));
      return managed?.isConnected() && managed.hash === configHash(server);
    });
    if (ready) return this.namedTools(userId, servers).tools;
    await this.connectWithin(userId, servers);
    return this.namedTools(userId, servers).tools;
  }

  /**
   * Connect what is not connected yet and wait at most `turnWaitMs` from the start of each
   * server's connect attempt (a second wait on the same attempt, in the same turn or the next one,
   * waits only the rest: a chat turn or a page waits for a slow server once, never twice). A server
   * still connecting after that shows `connecting` in its status and joins once connected.
   */
  async connectWithin(userId: string, servers: ServerDefinition[]): Promise<ServerStatus[]> {
    const refused = new Set<ManagedServer>();
    const managed = servers.map((server) => this.admittedOrRefused(userId, server, refused));
    await Promise.all(managed.filter((m) => !refused.has(m)).map((m) => m.settleWithin(this.options.turnWaitMs)));
    return managed.map((m) => m.status());
  }

  /**
   * Like `listTools`, for a page a person waits on: waits at most as `connectWithin` does; a server
   * still connecting then fails with `not_connected` saying so (its tools appear once connected).
   */
  async listToolsWithin(userId: string, server: ServerDefinition): Promise<RegisteredTool[]> {
    await this.requireConnectedWithin(userId, server);
    return this.namedTools(userId, [server]).tools;
  }

  /** Wait for the server as `connectWithin` does; throws its failure, or `not_connected` while it still connects. */
  async requireConnectedWithin(userId: string, server: ServerDefinition): Promise<void> {
    const [status] = await this.connectWithin(userId, [server]);
    if (status.state === "connected") return;
    if (status.state === "connecting" || status.state === "reconnecting") {
      throw new EngineError(
        "not_connected",
        `server "${server.name}" is still connecting (waited ${Math.round(this.options.turnWaitMs / 1000)} s); its tools appear once it is connected`,
      );
    }
    // Failed, disabled, needs authorization, refused: the entry's own error says why.
    await this.admitted(userId, server).ensureConnected();
  }

  /**
   * Call a server tool: the registered tool the caller already holds, or its raw name. Failures are error
   * outcomes; only a quota refusal throws.
   */
  async callTool(
    userId: string,
    server: ServerDefinition,
    tool: string | Pick<RegisteredTool, "rawName" | "serverId">,
    args: Record<string, unknown> = {},
    options: CallOptions = {},
  ): Promise<ToolCallOutcome> {
    if (typeof tool !== "string" && tool.serverId !== server.id) {
      return errorOutcome(new EngineError("not_found", `tool "${tool.rawName}" does not belong to server "${server.name}"`), 0);
    }
    const managed = this.admitted(userId, server);
    const release = this.options.admission?.call(userId);
    try {
      return await managed.callTool(typeof tool === "string" ? tool : tool.rawName, args, options);
    } finally {
      release?.();
    }
  }

  /** Call by registered name through the reverse map (wrappers included). Never throws. */
  async callRegistered(
    userId: string,
    servers: ServerDefinition[],
    registeredName: string,
    args: Record<string, unknown> = {},
    options: CallOptions = {},
  ): Promise<ToolCallOutcome> {
    let tool = this.namedTools(userId, servers).byName.get(registeredName);
    if (!tool) {
      await this.toolset(userId, servers);
      tool = this.namedTools(userId, servers).byName.get(registeredName);
    }
    if (!tool) return errorOutcome(new EngineError("not_found", `no tool named "${registeredName}" is registered`), 0);
    const server = servers.find((s) => s.id === tool.serverId)!;
    if (tool.kind === "tool") return this.callTool(userId, server, tool, args, options);
    const managed = this.admitted(userId, server);
    const release = this.options.admission?.call(userId);
    try {
      return await callWrapper(managed, tool.kind, args, options, () => this.options.clock.now());
    } finally {
      release?.();
    }
  }

  /** resources/list (all pages, bounded). */
  async listResources(userId: string, server: ServerDefinition): Promise<Resource[]> {
    return (await this.entry(userId, server).relist("resources")).resources;
  }

  /** resources/templates/list (all pages, bounded). */
  async listResourceTemplates(userId: string, server: ServerDefinition): Promise<ResourceTemplate[]> {
    return (await this.entry(userId, server).relist("resources")).resourceTemplates;
  }

  /** resources/read. */
  async readResource(userId: string, server: ServerDefinition, uri: string, options: CallOptions = {}): Promise<ReadResourceResult> {
    const timeoutMs = effectiveSettings(server.config).timeoutMs;
    return this.entry(userId, server).request((c) => c.readResource(uri, { ...options, timeoutMs }));
  }

  /** prompts/list (all pages, bounded). */
  async listPrompts(userId: string, server: ServerDefinition): Promise<Prompt[]> {
    return (await this.entry(userId, server).relist("prompts")).prompts;
  }

  /** prompts/get. */
  async getPrompt(
    userId: string,
    server: ServerDefinition,
    name: string,
    args: Record<string, string> = {},
    options: CallOptions = {},
  ): Promise<GetPromptResult> {
    const timeoutMs = effectiveSettings(server.config).timeoutMs;
    return this.entry(userId, server).request((c) => c.getPrompt(name, args, { ...options, timeoutMs }));
  }

  /**
   * completion/complete for a resource-template variable (`ref/resource` with the template as
   * listed) or a prompt argument; unknown references are refused before anything is sent.
   */
  async complete(
    userId: string,
    server: ServerDefinition,
    ref: CompleteRequest["params"]["ref"],
    argument: CompleteRequest["params"]["argument"],
    context?: CompleteRequest["params"]["context"],
  ) {
    const timeoutMs = effectiveSettings(server.config).timeoutMs;
    return this.entry(userId, server).request(async (c) => {
      checkCompletionRef(server.name, c.client.getServerCapabilities(), c.discovered, ref, argument.name);
      return boundCompletion(await c.complete({ ref, argument, context }, { timeoutMs }));
    });
  }

  /** The server's `instructions` for the host (untrusted text, like every server string); connects if needed. */
  async instructions(userId: string, server: ServerDefinition): Promise<string | undefined> {
    return this.entry(userId, server).request(async (c) => c.instructions);
  }

  /** Capabilities and instructions of the live connection, or null when not connected; never connects. */
  details(userId: string, server: ServerDefinition) {
    return this.entry(userId, server).details();
  }

  /** The current connection's server log: bounded, redacted, oldest first. */
  serverLog(userId: string, server: ServerDefinition): ServerLogEntry[] {
    return this.entry(userId, server).log.list();
  }

  /** logging/setLevel on the (user, server) connection. */
  async setLogLevel(userId: string, server: ServerDefinition, level: LoggingLevel): Promise<void> {
    const timeoutMs = effectiveSettings(server.config).timeoutMs;
    await this.entry(userId, server).request((c) => c.setLogLevel(level, { timeoutMs }));
  }

  /**
   * resources/subscribe: `onUpdated` runs for each `notifications/resources/updated` of `uri`.
   * Returns the unsubscribe function (resources/unsubscribe, and the listener removed).
   */
  async subscribeResource(
    userId: string,
    server: ServerDefinition,
    uri: string,
    onUpdated: (uri: string) => void,
  ): Promise<() => Promise<void>> {
    const managed = this.entry(userId, server);
    const timeoutMs = effectiveSettings(server.config).timeoutMs;
    const stop = managed.onResourceUpdated((updated) => {
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

  /** Apply a new config set for a user: close removed and changed servers, keep the rest, then discover. */
  async reload(userId: string, servers: ServerDefinition[]): Promise<void> {
    const wanted = new Map(servers.map((s) => [s.id, s]));
    const closing: Promise<void>[] = [];
    for (const [key, managed] of this.entries) {
      if (managed.userId !== userId) continue;
      const next = wanted.get(managed.server.id);
      if (!next || configHash(next) !== managed.hash) {
        this.entries.delete(key);
        this.named.delete(userId);
        closing.push(managed.close());
      }
    }
    await Promise.all(closing);
    await this.discover(userId, servers);
  }

  /** Close one (user, server) connection and forget it. */
  async close(userId: string, serverId: string): Promise<void> {
    const key = keyOf(userId, serverId);
    const managed = this.entries.get(key);
    this.entries.delete(key);
    this.named.delete(userId);
    await managed?.close();
  }

  /**
   * Close every user's connection to a server and forget them (the server was deleted, disabled or
   * edited); resolves when their children have ended.
   */
  async closeServer(serverId: string): Promise<void> {
    await this.closeWhere((managed) => managed.server.id === serverId);
  }

  /** Close a user's connections (all, or only to `serverIds`): membership removed, account disabled. */
  async closeUser(userId: string, serverIds?: string[]): Promise<void> {
    const only = serverIds && new Set(serverIds);
    await this.closeWhere((managed) => managed.userId === userId && (!only || only.has(managed.server.id)));
  }

  /** How many connections are open or opening (for the instance quota). */
  liveConnections(userId?: string): number {
    let count = 0;
    for (const managed of this.entries.values()) if ((!userId || managed.userId === userId) && managed.isLive()) count++;
    return count;
  }

  /** Close every connection of every user; resolves when all children have ended. */
  async closeAll(): Promise<void> {
    const all = [...this.entries.values()];
    this.entries.clear();
    this.named.clear();
    await Promise.allSettled(all.map((m) => m.close()));
  }

  private async closeWhere(match: (managed: ManagedServer) => boolean): Promise<void> {
    const closing: ManagedServer[] = [];
    for (const [key, managed] of this.entries) {
      if (!match(managed)) continue;
      this.entries.delete(key);
      this.named.delete(managed.userId);
      closing.push(managed);
    }
    await Promise.allSettled(closing.map((m) => m.close()));
  }

  private entry(userId: string, server: ServerDefinition): ManagedServer {
    const key = keyOf(userId, server.id);
    const existing = this.entries.get(key);
    if (existing && existing.hash === configHash(server)) return existing;
    // A changed config replaces the connection, as reload() would.
    if (existing)
      void existing
        .close()
        .catch((error: unknown) => this.options.logger.warn("close of replaced server failed", { error: String(error) }));
    const created = new ManagedServer(userId, server, this.options);
    this.entries.set(key, created);
    return created;
  }

  /** The entry, after the admission hook approved opening it when it is not live yet (throws over a quota). */
  private admitted(userId: string, server: ServerDefinition): ManagedServer {
    const managed = this.entry(userId, server);
    if (this.options.admission && !managed.isLive() && managed.status().state !== "disabled") {
      let user = 0;
      let total = 0;
      let sandboxes = 0;
      for (const other of this.entries.values()) {
        if (!other.isLive()) continue;
        total++;
        if (other.userId === userId) user++;
        if (other.server.config.command !== undefined) sandboxes++;
      }
      this.options.admission.connect(userId, server, { user, total, sandboxes });
    }
    return managed;
  }

  // Every enabled server connected (failed ones retried as their backoff allows), each settled.
  private async connectAll(userId: string, servers: ServerDefinition[]): Promise<ManagedServer[]> {
    const refused = new Set<ManagedServer>();
    const managed = servers.map((server) => this.admittedOrRefused(userId, server, refused));
    // allSettled: a failure is recorded in that server's status and must not block the others.
    await Promise.allSettled(managed.filter((m) => !refused.has(m) && m.currentState() !== "disabled").map((m) => m.ensureConnected()));
    return managed;
  }

  /** Like `admitted`, but a refusal is recorded in the server's status instead of thrown (discovery). */
  private admittedOrRefused(userId: string, server: ServerDefinition, refused: Set<ManagedServer>): ManagedServer {
    try {
      return this.admitted(userId, server);
    } catch (error) {
      const managed = this.entry(userId, server);
      managed.refuse(new EngineError("quota_exceeded", error instanceof Error ? error.message : String(error)));
      refused.add(managed);
      return managed;
    }
  }

  private async connected(managed: ManagedServer): Promise<void> {
    await managed.ensureConnected();
  }

  private namedTools(userId: string, servers: ServerDefinition[]): NamedTools {
    const parts = servers.map((server) => this.entries.get(keyOf(userId, server.id))?.tools() ?? NO_TOOLS);
    let mine = this.named.get(userId);
    if (!mine) {
      mine = new Map();
      this.named.set(userId, mine);
    }
    const setKey = servers.map((server) => server.id).join("\u0000");
    const memo = mine.get(setKey);
    // Each server's list is one array until it lists again (an empty one too): compare by identity.
    if (memo && memo.parts.length === parts.length && memo.parts.every((part, i) => part === parts[i])) return memo.named;
    const named = nameTools(parts.flat());
    mine.set(setKey, { parts, named });
    return named;
  }
}

type NamedTools = ReturnType<typeof nameTools>;
const NO_TOOLS: UnnamedTool[] = [];

function keyOf(userId: string, serverId: string): string {
  return `${userId}\u0000${serverId}`;
}
