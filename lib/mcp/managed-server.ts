/**
 * The life of one (user, server) connection (docs/architecture.md#connection-lifecycle): connect on first use with one shared
 * connect promise, reconnect after an unexpected drop on the backoff schedule, refresh on
 * list_changed, evict when idle (never mid-call), and keep the status figures.
 */
import { secretValuesOf } from "../redact";
import { backoffDelay, RECONNECT_POLICY } from "./backoff";
import { CallQueue } from "./call-queue";
import type { TimerHandle } from "./clock";
import { effectiveSettings, type ServerDefinition } from "./config";
import { configHash, endpointHash } from "./config-hash";
import { openConnection, type Connection, type ConnectionOptions } from "./connection";
import type { Discovered, ListKind } from "./discovery";
import { EngineError, isEngineError } from "./errors";
import { MetricsRecorder } from "./metrics";
import { SamplingGate } from "./sampling";
import { ServerLog } from "./server-log";
import { StatusPush } from "./status-push";
import { ScopeChallenge, StepUpRequiredError } from "./step-up";
import type { ResolvedPoolOptions } from "./pool-options";
import { registrationsOf, type UnnamedTool } from "./registry";
import { errorOutcome, outcomeOf } from "./results";
import { closedDuring, translateError } from "./translate-error";
import type { CallOptions, ServerState, ServerStatus, ToolCallOutcome } from "./types";
import type { LimitCounters } from "./limits";
import { FailureMemory } from "./failure-memory";

/** How long a connection must have lived for a drop to start a fresh reconnect schedule. */
const STABLE_MS = 60_000;
/** How often new call figures are pushed to the status hook (state changes go at once, lib/mcp/status-push.ts). */
const METRICS_PUSH_MS = 1000;

// One empty list for every server not connected, so callers can compare lists by identity.
const NO_TOOLS: UnnamedTool[] = [];

/** One (user, server) entry of the pool. */
export class ManagedServer {
  readonly hash: string;
  readonly secrets: string[];
  private state: ServerState = "idle";
  private connection: Connection | null = null;
  private connecting: Promise<Connection> | null = null;
  private connectAbort: AbortController | null = null;
  private generation = 0;
  private lastError: EngineError | null = null;
  private discovered: Discovered | null = null;
  private registrations: UnnamedTool[] = [];
  private readonly metrics = new MetricsRecorder();
  private readonly statusPush: StatusPush;
  private readonly samplingGate: SamplingGate;
  private readonly queue: CallQueue;
  private inFlight = 0;
  private reconnectAttempt = 0;
  private reconnectAt: number | null = null;
  private reconnectTimer: TimerHandle | null = null;
  private idleTimer: TimerHandle | null = null;
  private last = { pid: null as number | null, sessionId: null as string | null, stderr: "" };
  private refreshing: Promise<void> | null = null;
  private refreshQueued = new Set<ListKind>();
  private lastLimits: LimitCounters | null = null;
  private readonly failures: FailureMemory;
  private connectedAt = 0;
  /** When the current (or last) connect attempt began: bounded waits count from here. */
  private connectStartedAt = 0;
  /** The current connection's server log (a new connection starts a new one). */
  log: ServerLog;
  private readonly resourceListeners = new Set<(uri: string) => void>();

  constructor(
    readonly userId: string,
    readonly server: ServerDefinition,
    private readonly options: ResolvedPoolOptions,
  ) {
    this.hash = configHash(server);
    this.secrets = secretValuesOf(server.config);
    this.queue = new CallQueue(effectiveSettings(server.config).parallel);
    if (!effectiveSettings(server.config).enabled) this.state = "disabled";
    this.samplingGate = new SamplingGate(userId, server, options.onSampling, options.clock, options.logger, options.samplingMaxTokens);
    this.failures = new FailureMemory(() => options.clock.now());
    this.log = new ServerLog(this.secrets);
    const hook = options.onStatusChange;
    this.statusPush = new StatusPush(options.clock, METRICS_PUSH_MS, hook && (() => hook(this.status())));
  }

  /** Listen for `notifications/resources/updated`; returns the function that stops listening. */
  onResourceUpdated(listener: (uri: string) => void): () => void {
    this.resourceListeners.add(listener);
    return () => this.resourceListeners.delete(listener);
  }

  /** Current status snapshot. */
  status(): ServerStatus {
    const d = this.discovered;
    const c = this.connection;
    return {
      userId: this.userId,
      serverId: this.server.id,
      serverName: this.server.name,
      state: this.state,
      transport: c?.kind ?? null,
      lastError: this.lastError ? { code: this.lastError.code, message: this.lastError.message } : null,
      stepUp:
        this.state === "needs_authorization" && this.lastError instanceof StepUpRequiredError ? { scope: this.lastError.scope } : null,
      counts: {
        // What the tool list shows: the server's tools after the config's include/exclude filter
        // (the resource/prompt helper tools are listed and counted apart, in the UI).
        tools: d ? this.registrations.filter((t) => t.kind === "tool").length : 0,
        resources: d?.resources.length ?? 0,
        resourceTemplates: d?.resourceTemplates.length ?? 0,
        prompts: d?.prompts.length ?? 0,
      },
      metrics: this.metrics.snapshot(),
      sampling: this.samplingGate.audit(),
      stderrTail: c ? c.stderrTail() : this.last.stderr,
      serverInfo: c ? (c.client.getServerVersion() ?? null) : null,
      protocol: c?.era ? { era: c.era, version: c.protocolVersion } : null,
      reconnect:
        this.state === "reconnecting" && this.reconnectAt !== null ? { attempt: this.reconnectAttempt, at: this.reconnectAt } : null,
      pid: c?.pid ?? null,
      sessionId: c?.sessionId ?? null,
      limits: c ? c.limitCounters() : this.lastLimits,
      refusedTools: d?.refusedTools ?? [],
    };
  }

  /** What the live connection negotiated (capabilities, instructions), or null when not connected; never connects. */
  details(): { capabilities: Record<string, unknown>; instructions: string | null } | null {
    const c = this.connection;
    if (!c) return null;
    return { capabilities: (c.client.getServerCapabilities() ?? {}) as Record<string, unknown>, instructions: c.instructions ?? null };
  }

  /** The lifecycle state alone (status() builds the whole report). */
  currentState(): ServerState {
    return this.state;
  }

  /** Whether a connection is open now (nothing to wait for before using it). */
  isConnected(): boolean {
    return this.connection !== null;
  }

  /** Whether a connection is open or being opened (counted by the connection quotas). */
  isLive(): boolean {
    return this.connection !== null || this.connecting !== null;
  }

  /** Record that the host refused to open this connection (a quota); it is tried again later. */
  refuse(error: EngineError): void {
    this.lastError = error;
    this.setState("failed");
  }

  /** What this server registers right now (empty unless connected; the same array until it lists again). */
  tools(): UnnamedTool[] {
    return this.connection ? this.registrations : NO_TOOLS;
  }

  /** The live connection, connecting first if needed; concurrent callers share one attempt. */
  ensureConnected(): Promise<Connection> {
    if (this.state === "disabled") return Promise.reject(new EngineError("disabled", `server "${this.server.name}" is disabled`));
    if (this.connection) return Promise.resolve(this.connection);
    if (this.connecting) return this.connecting;
    // A server that just failed is not tried again on every request: its backoff decides when.
    const retryAt = this.failures.retryAt();
    if (this.state === "failed" && retryAt !== null && this.lastError) {
      const seconds = Math.ceil((retryAt - this.options.clock.now()) / 1000);
      return Promise.reject(new EngineError(this.lastError.code, `${this.lastError.message} (next try in ${seconds} s)`));
    }
    if (this.state === "reconnecting") {
      return Promise.reject(
        new EngineError(
          "reconnecting",
          `server "${this.server.name}" dropped and is reconnecting (attempt ${this.reconnectAttempt} of ${RECONNECT_POLICY.maxAttempts}); last error: ${this.lastError?.message ?? "unknown"}`,
        ),
      );
    }
    return this.startConnect("connecting");
  }

  /**
   * Connect if needed and wait for it, but only until `waitMs` after the current attempt began: a
   * caller who comes later waits the rest, none after that (a person waiting on a chat turn or a
   * page never pays a slow server's wait twice; it joins once connected). A failure is in status().
   */
  async settleWithin(waitMs: number): Promise<void> {
    if (this.connection || this.state === "disabled") return;
    const attempt = this.ensureConnected().then(
      () => undefined,
      () => undefined, // the failure is in status()
    );
    const left = this.connectStartedAt + waitMs - this.options.clock.now();
    if (this.connection || !this.connecting || left <= 0) return;
    let timer: TimerHandle | undefined;
    const waited = new Promise<void>((resolve) => (timer = this.options.clock.setTimeout(resolve, left)));
    await Promise.race([attempt, waited]);
    if (timer !== undefined) this.options.clock.clearTimeout(timer);
  }

  /** Drop the current connection (if any) and connect again now, resetting the backoff. */
  async reconnectNow(): Promise<void> {
    // A connect already under way is the reconnect asked for: repeated requests share it instead of
    // restarting it (each restart would fetch and check the server's lists again).
    if (this.connecting) {
      await this.connecting.catch(() => undefined); // the failure is in status()
      return;
    }
    this.failures.forget();
    await this.close("idle");
    if (this.state !== "disabled") await this.ensureConnected().catch(() => undefined); // the failure is in status()
  }

  /** Drop the connection and wait in `needs_authorization` until the user connects again. */
  private async requireAuthorization(error: EngineError): Promise<void> {
    await this.close("idle");
    this.lastError = error;
    this.setState("needs_authorization");
  }

  /** Close the connection, cancel pending reconnects and connects, and wait for the child to end. */
  async close(next: "idle" | "disabled" = "idle"): Promise<void> {
    this.generation++;
    this.clearTimers();
    this.connectAbort?.abort();
    const connection = this.connection;
    const pending = this.connecting;
    this.connection = null;
    this.connecting = null;
    this.reconnectAttempt = 0;
    this.reconnectAt = null;
    this.setState(next);
    if (connection) {
      this.remember(connection);
      await connection.close();
    }
    // An aborted connect rejects after it killed its own child; its error is not news.
    if (pending) await pending.catch(() => undefined);
  }

  /** Run one request on the connection, with idle bookkeeping and one transparent retry on a new session when the server answers 404 for an expired one (docs/limits.md). */
  async run<T>(op: (connection: Connection) => Promise<T>, queued = false): Promise<T> {
    const connection = await this.ensureConnected();
    this.inFlight++;
    this.clearIdle();
    const exec = (c: Connection) => (queued ? this.queue.run(() => op(c)) : op(c));
    try {
      return await exec(connection);
    } catch (error) {
      if (isEngineError(error, "session_expired") && connection.kind === "streamable_http") {
        this.options.logger.info("session expired (404); starting a new session", { server: this.server.name });
        if (this.connection === connection) await this.close("idle");
        return await exec(await this.ensureConnected());
      }
      // HTTP transports do not report a dead server as a close; an unreachable server is a drop.
      if (isEngineError(error, "unreachable") && this.connection === connection) this.handleDrop(this.generation, error);
      // A token rejected mid-session (revoked, refresh failed): the user must authorize again.
      if (isEngineError(error, "needs_authorization") && this.connection === connection) await this.requireAuthorization(error);
      throw error;
    } finally {
      this.inFlight--;
      this.armIdle();
    }
  }

  /** Call a raw tool; failures become error outcomes, never throws. */
  async callTool(rawName: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<ToolCallOutcome> {
    const started = this.options.clock.now();
    const { timeoutMs, maxTotalTimeoutMs } = effectiveSettings(this.server.config);
    let outcome: ToolCallOutcome;
    try {
      const result = await this.run((c) => {
        if (!this.registrations.some((t) => t.kind === "tool" && t.rawName === rawName)) {
          throw new EngineError("not_found", `server "${this.server.name}" has no enabled tool "${rawName}"`);
        }
        return c.callTool(rawName, args, { ...options, timeoutMs, maxTotalTimeoutMs });
      }, true);
      outcome = outcomeOf(result, this.options.clock.now() - started, this.secrets);
    } catch (error) {
      outcome = errorOutcome(this.asEngineError(error), this.options.clock.now() - started);
    }
    this.record(outcome);
    return outcome;
  }

  /** Count a finished call (tools and wrappers) in the status metrics. */
  record(outcome: ToolCallOutcome): void {
    this.metrics.record(outcome.durationMs, outcome.isError);
    this.statusPush.soon();
  }

  /** Run a non-tool request (resources, prompts, completion) and count it; throws EngineError. */
  async request<T>(op: (connection: Connection) => Promise<T>): Promise<T> {
    try {
      return await this.run(op);
    } catch (error) {
      throw this.asEngineError(error);
    }
  }

  /** Re-list one kind now (the wrappers call this so the model sees fresh lists). */
  async relist(kind: ListKind): Promise<Discovered> {
    const discovered = await this.request((c) => c.refresh(kind));
    this.applyDiscovered(discovered);
    return discovered;
  }

  private startConnect(mode: "connecting" | "reconnecting"): Promise<Connection> {
    const generation = ++this.generation;
    const abort = new AbortController();
    this.connectAbort = abort;
    this.connectStartedAt = this.options.clock.now();
    const log = new ServerLog(this.secrets);
    this.log = log;
    this.setState(mode);
    const options: ConnectionOptions = {
      ...this.options,
      userId: this.userId,
      server: this.server,
      authProvider: this.options.authProvider?.(this.userId, this.server),
      signal: abort.signal,
      onListChanged: (kind) => void this.refresh(generation, kind),
      samplingGate: this.samplingGate,
      scopeChallenge: new ScopeChallenge(),
      onUnexpectedClose: () => this.handleDrop(generation),
      // The era is the endpoint's: a renamed server or one with other settings need not probe again.
      eraKey: endpointHash(this.server.config),
      onLogEntry: (params) => log.add(params, this.options.clock.now()),
      onResourceUpdated: (uri) => {
        for (const listener of this.resourceListeners) listener(uri);
      },
    };
    const promise = openConnection(options).then(
      async (connection) => {
        if (generation !== this.generation) {
          await connection.close();
          throw new EngineError("not_connected", `server "${this.server.name}" was closed while connecting`);
        }
        this.connection = connection;
        this.remember(connection);
        this.lastError = null;
        this.connectedAt = this.options.clock.now();
        this.failures.succeeded();
        this.reconnectAt = null;
        this.applyDiscovered(connection.discovered, false);
        this.setState("connected");
        this.armIdle();
        return connection;
      },
      (error: EngineError) => {
        if (generation === this.generation) {
          this.lastError = error;
          if (mode === "connecting") this.failures.failed();
          if (error.code === "needs_authorization") this.setState("needs_authorization");
          else if (mode === "connecting") this.setState("failed");
          else this.emit();
        }
        throw error;
      },
    );
    this.connecting = promise;
    const clear = () => {
      if (this.connecting === promise) this.connecting = null;
    };
    promise.then(clear, clear);
    return promise;
  }

  private handleDrop(generation: number, cause?: EngineError): void {
    if (generation !== this.generation || !this.connection) return;
    const connection = this.connection;
    this.connection = null;
    this.generation++;
    this.remember(connection);
    this.lastError = cause ?? closedDuring(connection.errorContext("idle"));
    this.options.logger.warn("connection dropped; reconnecting", {
      server: this.server.name,
      userId: this.userId,
      error: this.lastError.message,
    });
    void connection.close().catch((error: unknown) => this.options.logger.debug("close after drop failed", { error: String(error) }));
    // A connection that drops right after connecting keeps counting attempts: no reset while flapping.
    if (this.options.clock.now() - this.connectedAt >= STABLE_MS) this.reconnectAttempt = 0;
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    const attempt = this.reconnectAttempt + 1;
    const delay = backoffDelay(attempt);
    if (delay === null) {
      const reason = this.lastError?.message ?? "unknown error";
      this.lastError = new EngineError(
        this.lastError?.code ?? "server_error",
        `gave up after ${RECONNECT_POLICY.maxAttempts} reconnect attempts; last error: ${reason}`,
      );
      this.reconnectAt = null;
      this.setState("failed");
      return;
    }
    this.reconnectAttempt = attempt;
    this.reconnectAt = this.options.clock.now() + delay;
    this.setState("reconnecting");
    this.reconnectTimer = this.options.clock.setTimeout(() => {
      this.reconnectTimer = null;
      this.startConnect("reconnecting").catch((error: EngineError) => {
        // Only the attempt still in charge schedules the next one (close() or reconnectNow() win).
        if (this.state !== "reconnecting" || this.connecting || this.reconnectTimer) return;
        if (error.code === "needs_authorization") return;
        this.scheduleReconnect();
      });
    }, delay);
  }

  private async refresh(generation: number, kind: ListKind): Promise<void> {
    if (generation !== this.generation || !this.connection) return;
    this.refreshQueued.add(kind);
    if (this.refreshing !== null) return this.refreshing;
    const connection = this.connection;
    this.refreshing = (async () => {
      while (this.refreshQueued.size > 0 && this.connection === connection) {
        const next = [...this.refreshQueued][0];
        this.refreshQueued.delete(next);
        try {
          this.applyDiscovered(await connection.refresh(next));
        } catch (error) {
          // Keep the previous list; the next notification or reconnect lists again.
          this.options.logger.warn(`refresh after ${next}/list_changed failed`, {
            server: this.server.name,
            error: this.asEngineError(error).message,
          });
        }
      }
    })().finally(() => (this.refreshing = null));
    return this.refreshing;
  }

  private applyDiscovered(discovered: Discovered, emit = true): void {
    this.discovered = discovered;
    this.registrations = registrationsOf(this.server, discovered);
    if (emit) this.emit();
  }

  private armIdle(): void {
    this.clearIdle();
    const ms = this.options.idleTimeoutMs;
    if (ms <= 0 || this.inFlight > 0 || !this.connection) return;
    this.idleTimer = this.options.clock.setTimeout(() => {
      this.idleTimer = null;
      if (this.inFlight === 0 && this.connection) void this.close("idle");
    }, ms);
  }

  private clearIdle(): void {
    if (this.idleTimer !== null) this.options.clock.clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  private clearTimers(): void {
    this.clearIdle();
    if (this.reconnectTimer !== null) this.options.clock.clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
  }

  private remember(connection: Connection): void {
    this.last = { pid: connection.pid, sessionId: connection.sessionId, stderr: connection.stderrTail() };
    this.lastLimits = connection.limitCounters();
  }

  private asEngineError(error: unknown): EngineError {
    return translateError(error, { serverName: this.server.name, phase: "call", secrets: this.secrets, url: this.server.config.url });
  }

  private setState(state: ServerState): void {
    this.state = state;
    this.emit();
  }

  private emit(): void {
    this.statusPush.now();
  }
}
