/**
 * The connection pool (docs/architecture.md#connection-lifecycle): long-lived connections keyed by (user, server), idempotent
 * discovery where one failing server never blocks others, reload of changed configs only, and the
 * toolset the agent sees with a reverse map from registered name to (server, raw tool). Requests on
 * one (user, server) go through its session handle (`session()`, lib/mcp/session.ts).
 */
import type { ServerDefinition } from "./config";
import type { ListKind } from "./discovery";
import { configHash } from "./config-hash";
import { EngineError } from "./errors";
import { LiveConnections } from "./live-connections";
import { LogThrottle } from "./log-throttle";
import { ManagedServer } from "./managed-server";
import { resolvePoolOptions, type ResolvedPoolOptions } from "./pool-options";
import { nameTools, type UnnamedTool } from "./registry";
import { errorOutcome } from "./results";
import type { CallOptions, PoolAdmission, PoolOptions, RegisteredTool, ServerStatus, ToolCallOutcome } from "./types";
import { callWrapper } from "./wrapper-calls";
import { ServerSession, type SessionHost } from "./session";

/** Pool of MCP connections for all users of this process. */
export class McpPool {
  private readonly entries = new Map<string, ManagedServer>();
  // Named tools per user and server set, rebuilt only when a server's listing changes (each listing
  // is a new array): every call and turn then gets the same objects, so what callers derive from a
  // tool (its trust hash, lib/trust) is computed once per listing, not once per request.
  private readonly named = new Map<string, Map<string, { parts: UnnamedTool[][]; named: NamedTools }>>();
  private readonly options: ResolvedPoolOptions;
  // Live entries least recently used first, with their counts (docs/limits.md#the-connection-ceiling).
  private readonly live = new LiveConnections<ManagedServer>((managed) => managed.server.config.command !== undefined);
  // Elicitations and sampling requests waiting for an answer, per (user, server): such a connection is never evicted.
  private readonly questions = new Map<string, number>();
  private evicted = 0;
  private readonly ceilingLog = new LogThrottle();

  private readonly host: SessionHost;
  // Moves whenever any entry's listing or connection changes (listing, connect, drop, close).
  private listings = 0;

  /** See `PoolOptions` for each option's default. */
  constructor(options: PoolOptions = {}) {
    const { onElicitation, onSampling } = options;
    this.options = resolvePoolOptions({
      ...options,
      onElicitation:
        onElicitation && ((userId, server, ...rest) => this.asking(userId, server, () => onElicitation(userId, server, ...rest))),
      onSampling: onSampling && ((userId, server, ...rest) => this.asking(userId, server, () => onSampling(userId, server, ...rest))),
    });
    this.host = {
      entry: (userId, server) => this.entry(userId, server),
      admitted: (userId, server) => this.admitted(userId, server),
      namedTools: (userId, servers) => this.namedTools(userId, servers),
      connectWithin: (userId, servers) => this.connectWithin(userId, servers),
      admission: this.options.admission,
      turnWaitMs: this.options.turnWaitMs,
      now: () => this.options.clock.now(),
    };
  }

  /** The handle for every request on one (user, server): tools, resources, prompts, logs, status. */
  session(userId: string, server: ServerDefinition): ServerSession {
    return new ServerSession(this.host, userId, server);
  }

  /**
   * A stamp of what `toolset(userId, servers)` would return: while it stays the same number, so does
   * the toolset (the same array). Null while a server is not connected with this config: then the
   * caller lists (connecting and waiting as `toolset` does).
   */
  listingVersion(userId: string, servers: ServerDefinition[]): number | null {
    return this.allConnected(userId, servers) ? this.listings : null;
  }

  /** Connect every enabled server not yet connected (failed ones are retried) and report all statuses. */
  async discover(userId: string, servers: ServerDefinition[]): Promise<ServerStatus[]> {
    return (await this.connectAll(userId, servers)).map((m) => m.status());
  }

  /**
   * All connected servers' tools for the agent, named together so names are unique across servers.
   * Waits at most `turnWaitMs` for servers still connecting: a slow server joins a later turn.
   */
  async toolset(userId: string, servers: ServerDefinition[]): Promise<RegisteredTool[]> {
    // Every server already connected with this config (the usual case on every call and turn):
    // nothing to connect or wait for.
    if (this.allConnected(userId, servers)) return this.namedTools(userId, servers).tools;
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
    if (tool.kind === "tool") return this.session(userId, server).callTool(tool, args, options);
    const managed = this.admitted(userId, server);
    const admitted = this.options.admission?.call(userId);
    const release = typeof admitted === "function" || admitted === undefined ? admitted : await admitted;
    try {
      return await callWrapper(managed, tool.kind, args, options, () => this.options.clock.now());
    } finally {
      release?.();
    }
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

  /**
   * The server of (user, server) said a list changed where it runs (another process, lib/mcp/placement.ts):
   * a relay to it here lists that kind again. Anything else here hears its own server.
   */
  relayedListChanged(userId: string, serverId: string, kind: ListKind): void {
    const managed = this.entries.get(keyOf(userId, serverId));
    if (!managed?.isConnected() || managed.status().transport !== "relay") return;
    managed
      .relist(kind)
      .catch((error: unknown) => this.options.logger.warn(`re-listing ${kind} through a relay failed`, { error: String(error) }));
  }

  /** Connections closed to make room at the instance's connection ceiling, since the pool was made. */
  get evictions(): number {
    return this.evicted;
  }

  /** How many connections are open or opening (of one user, or of the instance), counted as they change. */
  liveConnections(userId?: string): number {
    return userId === undefined ? this.live.size : this.live.counts(userId).user;
  }

  /** How many sandboxed (stdio) connections are open or opening, of all users (the operator's gauge). */
  liveSandboxes(): number {
    return this.live.counts("").sandboxes;
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
    if (existing && existing.hash === configHash(server)) {
      this.live.touch(existing);
      return existing;
    }
    // A changed config replaces the connection, as reload() would.
    if (existing)
      void existing
        .close()
        .catch((error: unknown) => this.options.logger.warn("close of replaced server failed", { error: String(error) }));
    const created: ManagedServer = new ManagedServer(userId, server, this.options, () => {
      this.listings++;
      this.live.track(created);
    });
    this.entries.set(key, created);
    return created;
  }

  /** The entry, after the admission hook approved opening it when it is not live yet (throws over a quota). */
  private admitted(userId: string, server: ServerDefinition): ManagedServer {
    const managed = this.entry(userId, server);
    const { admission } = this.options;
    if (admission && !managed.isLive() && managed.currentState() !== "disabled") {
      this.makeRoom(admission, server.config.command !== undefined);
      admission.connect(userId, server, this.live.counts(userId));
    }
    return managed;
  }

  /**
   * At the instance's connection ceiling (or, opening a sandboxed one, its sandbox ceiling), close the
   * least recently used idle connection (no call in flight, no subscription, no question waiting)
   * until one more fits; when none may be closed the admission hook refuses as before (a 429 naming the limit).
   */
  private makeRoom(admission: PoolAdmission, sandboxed: boolean): void {
    const ceiling = admission.connectionCeiling?.() ?? Number.POSITIVE_INFINITY;
    const sandboxCeiling = sandboxed ? (admission.sandboxCeiling?.() ?? Number.POSITIVE_INFINITY) : Number.POSITIVE_INFINITY;
    const free = (managed: ManagedServer) => !this.questions.has(keyOf(managed.userId, managed.server.id));
    for (;;) {
      const sandboxFull = this.live.sandboxes >= sandboxCeiling;
      if (!sandboxFull && this.live.size < ceiling) return;
      const oldest = this.live.oldestIdle(free, sandboxFull);
      if (!oldest) return;
      this.evicted++;
      // One line a minute at most: at the ceiling every newcomer's first call makes room.
      const line = this.ceilingLog.take("evict");
      if (line.log)
        this.options.logger.info("connection ceiling reached; closing least recently used idle connections", {
          ceiling,
          sandboxCeiling,
          evictions: this.evicted,
        });
      // close() gives up the connection at once (the count drops now); the session end goes on meanwhile.
      void oldest
        .close("idle")
        .catch((error: unknown) => this.options.logger.warn("close of an evicted connection failed", { error: String(error) }));
      this.live.track(oldest);
    }
  }

  /** Run `ask` (an elicitation or a sampling request of `server`) with its connection marked as waiting on a question. */
  private async asking<T>(userId: string, server: ServerDefinition, ask: () => Promise<T>): Promise<T> {
    const key = keyOf(userId, server.id);
    this.questions.set(key, (this.questions.get(key) ?? 0) + 1);
    try {
      return await ask();
    } finally {
      const left = (this.questions.get(key) ?? 1) - 1;
      if (left > 0) this.questions.set(key, left);
      else this.questions.delete(key);
    }
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

  private allConnected(userId: string, servers: ServerDefinition[]): boolean {
    return servers.every((server) => {
      const managed = this.entries.get(keyOf(userId, server.id));
      return managed?.isConnected() && managed.hash === configHash(server);
    });
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
