/**
 * The life of one (user, server) connection (docs/architecture.md#connection-lifecycle): connect on first use with one shared
 * connect promise, reconnect after an unexpected drop on the backoff schedule, evict when idle
 * (never mid-call). Its seams: the state machine (lifecycle.ts), the status projection
 * (status-projection.ts) and the listing with its list_changed re-lists (refresh-coordinator.ts).
 */
import { secretValuesOf } from "../redact";
import { CallQueue } from "./call-queue";
import { waitUntil } from "./clock";
import { effectiveSettings, type ServerDefinition } from "./config";
import { configHash } from "./config-hash";
import { openConnection, type Connection } from "./connection";
import { withoutClientRelay } from "./client-relay";
import { connectionOptions } from "./connection-options";
import type { Discovered, ListKind } from "./discovery";
import { EngineError } from "./errors";
import { MetricsRecorder } from "./metrics";
import { SamplingGate } from "./sampling";
import { ServerLog, type ServerLogEntry } from "./server-log";
import { connectionStatusPush, type StatusPush } from "./status-push";
import { ScopeChallenge } from "./step-up";
import type { ResolvedPoolOptions } from "./pool-options";
import type { UnnamedTool } from "./registry";
import { closedDuring, translateError } from "./translate-error";
import type { RequestEndEvent, ServerState, ServerStatus, ToolCallOutcome } from "./types";
import { watchForReturn } from "./comeback";
import { FailureMemory } from "./failure-memory";
import { runsAgainOnNewSession, verdictOf, type FailedOn } from "./failure-verdict";
import { IdleTimer } from "./idle-timer";
import { Listeners } from "./listeners";
import { Lifecycle } from "./lifecycle";
import { gaveUpError, ReconnectSchedule, reconnectingError } from "./reconnect-schedule";
import { RefreshCoordinator } from "./refresh-coordinator";
import { reportRequestEnd } from "./request-end";
import { detailsOf, lastOf, projectStatus, type LastConnection } from "./status-projection";

// One empty list for every server not connected, so callers can compare lists by identity.
const NO_TOOLS: UnnamedTool[] = [];

/** One (user, server) entry of the pool. */
export class ManagedServer {
  readonly hash: string;
  readonly secrets: string[];
  private readonly lifecycle: Lifecycle;
  private connection: Connection | null = null;
  private connecting: Promise<Connection> | null = null;
  private connectAbort: AbortController | null = null;
  private generation = 0;
  private lastError: EngineError | null = null;
  private readonly listing: RefreshCoordinator;
  private readonly metrics = new MetricsRecorder();
  private readonly statusPush: StatusPush;
  private readonly samplingGate: SamplingGate;
  private readonly queue: CallQueue;
  private inFlight = 0;
  private readonly reconnects: ReconnectSchedule;
  private readonly idle: IdleTimer;
  private last: LastConnection = { pid: null, sessionId: null, stderr: "", limits: null };
  private readonly failures: FailureMemory;
  private connectedAt = 0;
  /** When the current (or last) connect attempt began: bounded waits count from here. */
  private connectStartedAt = 0;
  /** The current connection's server log (a new connection starts a new one). */
  log: ServerLog;
  /** `notifications/resources/updated` of the live connection, by URI (a listener keeps the connection open). */
  readonly resourceUpdates = new Listeners<string>();
  /** Each list announced as changed, once re-listed (`list_changed`); keeps no connection open. */
  readonly listChanges = new Listeners<ListKind>();
  /** Each `notifications/message` as kept (redacted) in `log`; keeps no connection open. */
  readonly logEntries = new Listeners<ServerLogEntry>();

  constructor(
    readonly userId: string,
    readonly server: ServerDefinition,
    private readonly options: ResolvedPoolOptions,
    /** Hears of every change to what `tools()` returns or to `isLive()` (a listing, a state change). */
    private readonly onListing: () => void = () => {},
  ) {
    this.hash = configHash(server);
    this.secrets = secretValuesOf(server.config);
    this.queue = new CallQueue(effectiveSettings(server.config).parallel);
    this.lifecycle = new Lifecycle(effectiveSettings(server.config).enabled ? "idle" : "disabled", (from, to) =>
      options.logger.error("refused a lifecycle move the engine does not allow", { server: server.name, from, to }),
    );
    this.listing = new RefreshCoordinator(server, {
      current: () => this.connection,
      changed: (emit) => {
        this.onListing();
        if (emit) this.emit();
      },
      refreshed: (kind) => this.listChanges.emit(kind),
      failed: (kind, error) =>
        options.logger.warn(`refresh after ${kind}/list_changed failed`, { server: server.name, error: this.asEngineError(error).message }),
    });
    this.reconnects = new ReconnectSchedule(options.clock);
    this.idle = new IdleTimer(
      options.clock,
      options.idleTimeoutMs,
      () => this.inFlight === 0 && this.connection !== null,
      () => void this.close("idle"),
    );
    this.samplingGate = new SamplingGate(userId, server, options.onSampling, options.clock, options.logger, options.samplingMaxTokens);
    this.failures = new FailureMemory(() => options.clock.now());
    this.log = new ServerLog(this.secrets);
    this.statusPush = connectionStatusPush(options, userId, () => this.status());
  }

  /** Current status snapshot (status-projection.ts derives it from the state and the facts kept here). */
  status(): ServerStatus {
    return projectStatus({
      userId: this.userId,
      server: this.server,
      state: this.lifecycle.state,
      connection: this.connection,
      last: this.last,
      lastError: this.lastError,
      discovered: this.listing.discovered,
      registrations: this.listing.registrations,
      metrics: this.metrics.snapshot(),
      sampling: this.samplingGate.audit(),
      reconnect: { attempt: this.reconnects.attempt, at: this.reconnects.at },
    });
  }

  /** What the live connection negotiated (capabilities, instructions), or null when not connected; never connects. */
  details() {
    return detailsOf(this.connection);
  }

  /** The lifecycle state alone (status() builds the whole report). */
  currentState(): ServerState {
    return this.lifecycle.state;
  }

  /** Whether a connection is open now (nothing to wait for before using it). */
  isConnected(): boolean {
    return this.connection !== null;
  }

  /** Whether a connection is open or being opened (counted by the connection quotas). */
  isLive(): boolean {
    return this.connection !== null || this.connecting !== null;
  }

  /** Whether closing it now cuts nothing: connected, nothing in flight, no resource subscription. */
  isIdle(): boolean {
    return this.connection !== null && this.inFlight === 0 && this.resourceUpdates.size === 0;
  }

  /** Record that the host refused to open this connection (a quota); it is tried again later. */
  refuse(error: EngineError): void {
    this.lastError = error;
    this.setState("failed");
  }

  /** What the last listing registers, connected or not (the call path checks a tool against it). */
  registered(): UnnamedTool[] {
    return this.listing.registrations;
  }

  /** What this server registers right now (empty unless connected; the same array until it lists again). */
  tools(): UnnamedTool[] {
    return this.connection ? this.listing.registrations : NO_TOOLS;
  }

  /** The live connection, connecting first if needed; concurrent callers share one attempt. */
  ensureConnected(): Promise<Connection> {
    if (this.lifecycle.state === "disabled") return Promise.reject(new EngineError("disabled", `server "${this.server.name}" is disabled`));
    if (this.connection) return Promise.resolve(this.connection);
    if (this.connecting) return this.connecting;
    // A server that just failed is not tried again on every request: its backoff decides when.
    const retryAt = this.failures.retryAt();
    if (this.lifecycle.state === "failed" && retryAt !== null && this.lastError) {
      const seconds = Math.ceil((retryAt - this.options.clock.now()) / 1000);
      return Promise.reject(new EngineError(this.lastError.code, `${this.lastError.message} (next try in ${seconds} s)`));
    }
    if (this.lifecycle.state === "reconnecting") {
      return Promise.reject(reconnectingError(this.server.name, this.reconnects.attempt, this.lastError));
    }
    return this.startConnect("connecting");
  }

  /**
   * Connect if needed and wait for it, but only until `waitMs` after the current attempt began: a
   * caller who comes later waits the rest, none after that (a person waiting on a chat turn or a
   * page never pays a slow server's wait twice; it joins once connected). A failure is in status().
   */
  async settleWithin(waitMs: number): Promise<void> {
    if (this.connection || this.lifecycle.state === "disabled") return;
    const attempt = this.ensureConnected().catch(() => undefined); // the failure is in status()
    if (this.connection || !this.connecting) return;
    await waitUntil(this.options.clock, attempt, this.connectStartedAt + waitMs);
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
    if (this.lifecycle.state !== "disabled") await this.ensureConnected().catch(() => undefined); // the failure is in status()
  }

  /** Close the connection, cancel pending reconnects and connects, and wait for the child to end. */
  async close(next: "idle" | "disabled" = "idle"): Promise<void> {
    this.generation++;
    this.idle.clear();
    this.reconnects.cancel();
    this.connectAbort?.abort();
    const connection = this.connection;
    const pending = this.connecting;
    this.connection = null;
    this.connecting = null;
    this.reconnects.reset();
    this.setState(next);
    if (connection) {
      this.last = lastOf(connection);
      await connection.close();
    }
    // An aborted connect rejects after it killed its own child; its error is not news.
    if (pending) await pending.catch(() => undefined);
  }

  /** Run one request with idle bookkeeping and one retry on a new session when the server forgot the old one (docs/limits.md#stale-sessions). */
  async run<T>(op: (connection: Connection) => Promise<T>, queued = false): Promise<T> {
    const connection = await this.ensureConnected();
    this.inFlight++;
    this.idle.clear();
    const exec = (c: Connection, on: FailedOn) =>
      (queued ? this.queue.run(() => op(c)) : op(c)).catch(async (error: unknown) => {
        await this.failedOn(c, error, on);
        throw error;
      });
    try {
      return await exec(connection, "request");
    } catch (error) {
      if (!runsAgainOnNewSession(error, connection.kind)) throw error;
      this.options.logger.info("session expired; starting a new session", { server: this.server.name, transport: connection.kind });
      if (this.connection === connection) await this.close("idle");
      return await exec(await this.ensureConnected(), "retry");
    } finally {
      this.inFlight--;
      this.idle.arm();
    }
  }

  /** Count a finished call (tools and wrappers) in the status metrics. */
  record(outcome: ToolCallOutcome): void {
    this.metrics.record(outcome.durationMs, outcome.isError);
    this.statusPush.soon();
  }

  /** Hand one finished request to the host's `onRequestEnd` (request-end.ts). */
  reportRequest(build: () => RequestEndEvent): void {
    reportRequestEnd(this.options, this.server.name, build);
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
    this.listing.apply(discovered);
    return discovered;
  }

  private startConnect(mode: "connecting" | "reconnecting"): Promise<Connection> {
    const generation = ++this.generation;
    const abort = new AbortController();
    this.connectAbort = abort;
    this.connectStartedAt = this.options.clock.now();
    const log = new ServerLog(this.secrets);
    this.log = log;
    const options = connectionOptions(
      this.options,
      { userId: this.userId, server: this.server },
      {
        onListChanged: (kind) => {
          if (generation === this.generation && this.connection) void this.listing.listChanged(this.connection, kind);
        },
        samplingGate: this.samplingGate,
        scopeChallenge: new ScopeChallenge(),
        onUnexpectedClose: () => this.handleDrop(generation),
        onLogEntry: (params) => this.logEntries.emit(log.add(params, this.options.clock.now())),
        onResourceUpdated: (uri) => this.resourceUpdates.emit(uri),
      },
      abort.signal,
    );
    const promise = withoutClientRelay(() => openConnection(options)).then(
      async (connection) => {
        if (generation !== this.generation) {
          await connection.close();
          throw new EngineError("not_connected", `server "${this.server.name}" was closed while connecting`);
        }
        this.connection = connection;
        this.last = lastOf(connection);
        this.lastError = null;
        this.connectedAt = this.options.clock.now();
        this.failures.succeeded();
        this.reconnects.at = null;
        this.listing.apply(connection.discovered, false);
        this.setState("connected");
        this.idle.arm();
        if (connection.kind !== "stdio") this.options.health.watch(connection, (error) => void this.failedOn(connection, error, "ping"));
        return connection;
      },
      (error: EngineError) => {
        // Not live from here on: the state change below says so to the pool's connection count.
        if (this.connecting === promise) this.connecting = null;
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
    this.setState(mode); // after `connecting` is set: the pool counts this connection from here
    const clear = () => {
      if (this.connecting === promise) this.connecting = null;
    };
    promise.then(clear, clear);
    return promise;
  }

  /** A request or health ping on `connection` failed: drop it, or close it to wait in `needs_authorization` (failure-verdict.ts). */
  private async failedOn(connection: Connection, error: unknown, on: FailedOn): Promise<void> {
    const verdict = this.connection === connection ? verdictOf(error, on) : "keep";
    if (verdict === "drop") this.handleDrop(this.generation, error as EngineError);
    if (verdict !== "authorize") return;
    await this.close("idle");
    this.lastError = error as EngineError;
    this.setState("needs_authorization");
  }

  private handleDrop(generation: number, cause?: EngineError): void {
    if (generation !== this.generation || !this.connection) return;
    const connection = this.connection;
    this.connection = null;
    this.generation++;
    this.last = lastOf(connection);
    this.lastError = cause ?? closedDuring(connection.errorContext("idle"));
    this.options.logger.warn("connection dropped; reconnecting", {
      server: this.server.name,
      userId: this.userId,
      error: this.lastError.message,
    });
    void connection.close().catch((error: unknown) => this.options.logger.debug("close after drop failed", { error: String(error) }));
    // A connection that drops right after connecting keeps counting attempts: no reset while flapping.
    this.reconnects.dropped(this.connectedAt);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    const scheduled = this.reconnects.next(() =>
      this.startConnect("reconnecting").catch((error: EngineError) => {
        // Only the attempt still in charge schedules the next one (close() or reconnectNow() win).
        if (this.lifecycle.state !== "reconnecting" || this.connecting || this.reconnects.waiting) return;
        if (error.code === "needs_authorization") return;
        this.scheduleReconnect();
      }),
    );
    if (scheduled) {
      this.setState("reconnecting");
      return;
    }
    this.lastError = gaveUpError(this.lastError);
    this.setState("failed");
    watchForReturn(this.options, this); // an HTTP server is probed until it answers again (comeback.ts)
  }

  /** An error raised by a request on this server, as the engine reports it (redacted, one line). */
  asEngineError(error: unknown): EngineError {
    return translateError(error, { serverName: this.server.name, phase: "call", secrets: this.secrets, url: this.server.config.url });
  }

  private setState(state: ServerState): void {
    this.lifecycle.to(state);
    this.onListing();
    this.emit();
  }

  private emit(): void {
    this.statusPush.now();
  }
}
