/**
 * One live MCP session for one (user, server): opens the transport (stdio child or HTTP with SSE
 * fallback), initializes, discovers, and runs requests. Every SDK error is translated here, once.
 */
import type { Client } from "@modelcontextprotocol/client";
import type { OAuthClientProvider } from "@modelcontextprotocol/client";
import type { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { FetchLike, Transport } from "@modelcontextprotocol/client";
import {
  SdkError,
  SdkErrorCode,
  UrlElicitationRequiredError,
  type PriorDiscovery,
  type LoggingLevel,
  type LoggingMessageNotification,
  type CallToolResult,
  type CompleteRequest,
  type GetPromptResult,
  type ReadResourceResult,
} from "@modelcontextprotocol/client";
import { secretValuesOf } from "../redact";
import { startCallDeadline } from "./call-deadline";
import { childEnvironment } from "./child-env";
import { ConnectPhase } from "./connect-phase";
import { createClient } from "./client-factory";
import { STDIO_PROBE_TIMEOUT_MS, type Era, type EraCache } from "./era";
import type { SamplingGate } from "./sampling";
import { observeScopeChallenges, recordsStepUp, StepUpRequiredError, type ScopeChallenge } from "./step-up";
import type { Clock } from "./clock";
import { effectiveSettings, type ServerDefinition } from "./config";
import { discover, type Discovered, type ListKind } from "./discovery";
import { EngineError } from "./errors";
import { callToolAsTask, shouldCallAsTask, taskSupportOf } from "./tasks";
import { createSseTransport, createStreamableTransport, isLegacySseUrl, shouldFallBackToSse } from "./http-transport";
import type { LaunchWrapper } from "./launch";
import type { Logger } from "./logger";
import { ChildProcessTransport } from "./stdio-transport";
import { cappedFetch, ConnectionGuard, LimitedStdioTransport, LimitedTransport, type EngineLimits, type LimitCounters } from "./limits";
import { closedDuring, connectTimeout, translateError, type ErrorContext } from "./translate-error";
import type { CallOptions, ElicitationHandler, LoggingMessageHandler, TransportUsed } from "./types";

/** Everything needed to open one connection. */
export interface ConnectionOptions {
  userId: string;
  server: ServerDefinition;
  launchWrapper: LaunchWrapper;
  fetch?: FetchLike;
  authProvider?: OAuthClientProvider;
  logger: Logger;
  clock: Clock;
  maxMessageBytes?: number;
  /** Caps on what the server sends (docs/limits.md). */
  limits: EngineLimits;
  killGraceMs?: number;
  stderrBytes?: number;
  clientVersion: string;
  onElicitation?: ElicitationHandler;
  onLoggingMessage?: LoggingMessageHandler;
  onListChanged: (kind: ListKind) => void;
  /** Sampling policy gate of this (user, server). */
  samplingGate?: SamplingGate;
  /** Where a 403 `insufficient_scope` challenge on this connection is recorded (step-up). */
  scopeChallenge: ScopeChallenge;
  /** The link closed without `close()` being called (crash, server exit). */
  onUnexpectedClose: () => void;
  /** Aborts a connect in progress (e.g. the pool closes the server). */
  signal?: AbortSignal;
  /** Every `notifications/message` of this connection (its log buffer). */
  onLogEntry?: (params: LoggingMessageNotification["params"]) => void;
  /** `notifications/resources/updated` for a subscribed resource. */
  onResourceUpdated?: (uri: string) => void;
  /** Remembered protocol eras, and this server's key in them (its endpoint hash: URL and headers, or the launch). */
  eras?: EraCache;
  eraKey?: string;
}

/** A connected, discovered session. */
export class Connection {
  private closing = false;
  ready = false;

  constructor(
    readonly client: Client,
    readonly transport: Transport,
    readonly kind: TransportUsed,
    public discovered: Discovered,
    private readonly options: ConnectionOptions,
    private readonly guard: ConnectionGuard,
  ) {}

  /** Limit counters of this connection (refusals, dropped notifications, stream opens). */
  limitCounters(): LimitCounters {
    return this.guard.snapshot();
  }

  /** PID of the stdio child, if any. */
  get pid(): number | null {
    return this.transport instanceof ChildProcessTransport ? this.transport.pid : null;
  }

  /** The protocol era negotiated: "modern" (2026-07-28) or "legacy" (2025-11-25 and older). */
  get era(): Era | undefined {
    return this.client.getProtocolEra();
  }

  /** The protocol version in use. */
  get protocolVersion(): string | null {
    return this.client.getNegotiatedProtocolVersion() ?? null;
  }

  /** Streamable HTTP session id, if any. */
  get sessionId(): string | null {
    return this.transport.sessionId ?? null;
  }

  /** Redacted stderr tail (stdio only). */
  stderrTail(): string {
    return this.transport instanceof ChildProcessTransport ? this.transport.stderrTail() : "";
  }

  /** Context for translating an error raised on this connection. */
  errorContext(phase: ErrorContext["phase"], extra: Partial<ErrorContext> = {}): ErrorContext {
    return contextFor(this.options, phase, this.transport, extra);
  }

  /**
   * Call a tool; the timeout restarts on every progress notification, the total ceiling
   * (`maxTotalTimeoutMs`) does not (docs/architecture.md#transports).
   */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: CallOptions & { timeoutMs: number; maxTotalTimeoutMs?: number },
  ): Promise<CallToolResult> {
    const { clock, logger } = this.options;
    const deadline = startCallDeadline(options.maxTotalTimeoutMs, clock, options.signal);
    const timeoutMs = Math.min(options.timeoutMs, options.maxTotalTimeoutMs ?? Infinity);
    // The call runs on the deadline's signal; errors are translated against the caller's own (Stop = cancelled).
    const bounded = { ...options, signal: deadline.signal, timeoutMs };
    const context = { ...options, timeoutMs };
    const tool = this.discovered.tools.find((t) => t.name === name);
    try {
      if (shouldCallAsTask(taskSupportOf(tool), this.era, this.client.getServerCapabilities(), options.asTask)) {
        return await this.request(context, () => callToolAsTask(this.client, { name, arguments: args }, { ...bounded, clock, logger }));
      }
      const call = () =>
        this.client.callTool(
          { name, arguments: args },
          {
            // The definition listed at discovery: the SDK mirrors its declared headers and checks its output schema.
            toolDefinition: tool,
            timeout: bounded.timeoutMs,
            resetTimeoutOnProgress: true,
            // Always pass onprogress: the SDK only sends a progress token (and resets the timeout) with one.
            onprogress: (progress) => options.onProgress?.(progress),
            signal: bounded.signal,
          },
        );
      return await this.request(context, async () => {
        try {
          return await call();
        } catch (error) {
          // -32042 (spec 2025-11-25): the user must complete URL elicitations first; then retry once.
          if (!(error instanceof UrlElicitationRequiredError) || !(await this.completeUrlElicitations(error, bounded.signal))) throw error;
          return await call();
        }
      });
    } finally {
      deadline.dispose();
    }
  }

  /** Ask the user through the host to complete each URL elicitation; true when all were accepted. */
  private async completeUrlElicitations(error: UrlElicitationRequiredError, signal?: AbortSignal): Promise<boolean> {
    const { onElicitation, userId, server } = this.options;
    if (!onElicitation) return false;
    for (const params of error.elicitations) {
      const answer = await onElicitation(userId, server, params, signal ?? new AbortController().signal);
      if (answer.action !== "accept") return false;
    }
    return true;
  }

  /** resources/read. */
  readResource(uri: string, options: CallOptions & { timeoutMs: number }): Promise<ReadResourceResult> {
    return this.request(options, () => this.client.readResource({ uri }, { timeout: options.timeoutMs, signal: options.signal }));
  }

  /** prompts/get. */
  getPrompt(name: string, args: Record<string, string>, options: CallOptions & { timeoutMs: number }): Promise<GetPromptResult> {
    return this.request(options, () =>
      this.client.getPrompt({ name, arguments: args }, { timeout: options.timeoutMs, signal: options.signal }),
    );
  }

  /** The server's `instructions` (from initialize or server/discover); untrusted text. */
  get instructions(): string | undefined {
    return this.client.getInstructions();
  }

  /** logging/setLevel: the least severe level the server should send. */
  setLogLevel(level: LoggingLevel, options: CallOptions & { timeoutMs: number }): Promise<void> {
    return this.request(options, async () => {
      await this.client.setLoggingLevel(level, { timeout: options.timeoutMs, signal: options.signal });
    });
  }

  /** resources/subscribe: updates arrive as `notifications/resources/updated`. */
  subscribeResource(uri: string, options: CallOptions & { timeoutMs: number }): Promise<void> {
    return this.request(options, async () => {
      await this.client.subscribeResource({ uri }, { timeout: options.timeoutMs, signal: options.signal });
    });
  }

  /** resources/unsubscribe. */
  unsubscribeResource(uri: string, options: CallOptions & { timeoutMs: number }): Promise<void> {
    return this.request(options, async () => {
      await this.client.unsubscribeResource({ uri }, { timeout: options.timeoutMs, signal: options.signal });
    });
  }

  /** completion/complete. */
  complete(params: CompleteRequest["params"], options: CallOptions & { timeoutMs: number }) {
    return this.request(options, () => this.client.complete(params, { timeout: options.timeoutMs, signal: options.signal }));
  }

  /** Re-list after a list_changed notification. */
  async refresh(kind: ListKind): Promise<Discovered> {
    const settings = effectiveSettings(this.options.server.config);
    this.discovered = await this.request({ timeoutMs: settings.connectTimeoutMs }, () =>
      discover(this.client, {
        timeoutMs: settings.connectTimeoutMs,
        logger: this.options.logger,
        only: kind,
        previous: this.discovered,
        limits: this.options.limits,
        serverName: this.options.server.name,
      }),
    );
    return this.discovered;
  }

  /** End the session: DELETE for Streamable HTTP, process-group kill for stdio. */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    if (this.kind === "streamable_http") {
      await (this.transport as StreamableHTTPClientTransport).terminateSession().catch((error: unknown) => {
        // Best effort (spec: servers MAY refuse DELETE); the session then expires on its own.
        this.options.logger.debug("session DELETE failed", { error: String(error) });
      });
    }
    await this.client.close();
  }

  /** Called by the transport's close: tells the owner only about closes it did not ask for. */
  handleClose(): void {
    if (!this.closing && this.ready) this.options.onUnexpectedClose();
  }

  private async request<T>(options: CallOptions & { timeoutMs: number }, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      // The server asked for a wider scope than the token has: only a new authorization can help.
      const scope = this.options.scopeChallenge.take();
      if (scope) {
        throw new StepUpRequiredError(this.options.server.name, scope, { cause: error });
      }
      throw translateError(error, this.errorContext("call", { timeoutMs: options.timeoutMs, signal: options.signal }));
    }
  }
}

/** Open, initialize and discover within `connect_timeout`; the error says specifically what failed. */
export async function openConnection(options: ConnectionOptions): Promise<Connection> {
  const { server } = options;
  const settings = effectiveSettings(server.config);
  let transport: Transport | undefined;
  const abort = new AbortController();
  const onOuterAbort = () => abort.abort();
  options.signal?.addEventListener("abort", onOuterAbort);
  let timedOut = false;
  const timer = options.clock.setTimeout(() => {
    timedOut = true;
    abort.abort();
  }, settings.connectTimeoutMs);
  let connection: Connection | undefined;
  const phase = new ConnectPhase(server.name);
  try {
    const attempt = async () => {
      const opened = await connectTransport(options, abort.signal, phase, (t) => (transport = t));
      const discovered = await discover(opened.client, {
        timeoutMs: settings.connectTimeoutMs,
        logger: options.logger,
        signal: abort.signal,
        limits: options.limits,
        serverName: server.name,
      });
      connection = new Connection(opened.client, opened.transport, opened.kind, discovered, options, opened.guard);
      opened.client.onclose = () => connection!.handleClose();
      return connection;
    };
    // The abort rejects the race at once: a child that never answers is killed below, not awaited.
    const aborted = new Promise<never>((_, reject) =>
      abort.signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true }),
    );
    const result = await Promise.race([attempt(), aborted, phase.failed]);
    result.ready = true;
    return result;
  } catch (error) {
    // Null when the SDK or we stopped the child: our own SIGTERM must not read as "the server exited".
    const exitedOnItsOwn = transport instanceof ChildProcessTransport ? transport.exitInfo : null;
    await closeQuietly(transport, options.logger);
    const context = contextFor(options, "connect", transport, {
      timeoutMs: settings.connectTimeoutMs,
      signal: timedOut ? undefined : options.signal,
    });
    if (timedOut) throw connectTimeout(context);
    if (transport instanceof ChildProcessTransport && exitedOnItsOwn && !(error instanceof EngineError)) {
      throw closedDuring(context, error);
    }
    throw translateError(error, context);
  } finally {
    phase.end();
    options.clock.clearTimeout(timer);
    options.signal?.removeEventListener("abort", onOuterAbort);
  }
}

async function connectTransport(
  options: ConnectionOptions,
  signal: AbortSignal,
  phase: ConnectPhase,
  track: (transport: Transport) => void,
): Promise<{ client: Client; transport: Transport; kind: TransportUsed; guard: ConnectionGuard }> {
  const { server, eras, eraKey } = options;
  // One guard per connection: its caps, rates and reopen budget hold across every wire it opens.
  const guard = new ConnectionGuard(options.limits, () => options.clock.now());
  phase.watchGuard(guard);
  const limited = (transport: Transport) =>
    transport instanceof ChildProcessTransport ? new LimitedStdioTransport(transport, guard) : new LimitedTransport(transport, guard);
  const config = server.config;
  const settings = effectiveSettings(config);
  const rpc = { timeout: settings.connectTimeoutMs, signal };
  const remembered = eraKey ? eras?.prior(eraKey) : undefined;
  const connect = async (client: Client, transport: Transport, prior: PriorDiscovery | undefined) => {
    try {
      await client.connect(limited(transport), { ...rpc, ...(prior ? { prior } : {}) });
    } catch (error) {
      if (eraKey) eras?.forget(eraKey);
      throw error;
    }
    if (eraKey) eras?.remember(eraKey, client.getProtocolEra());
  };
  const command = config.command;
  if (command !== undefined) {
    const open = async (prior: PriorDiscovery | undefined) => {
      const launch = await options.launchWrapper(
        { command, args: config.args ?? [], env: childEnvironment(config.env), cwd: config.cwd },
        { userId: options.userId, serverId: server.id, serverName: server.name, config },
      );
      // The pool may have given up on this attempt while the wrapper prepared the sandbox.
      signal.throwIfAborted();
      const transport = new ChildProcessTransport({
        launch,
        maxMessageBytes: options.maxMessageBytes ?? options.limits.maxMessageBytes,
        maxJsonDepth: options.limits.maxJsonDepth,
        maxJsonMembers: options.limits.maxJsonMembers,
        stderrBytes: options.stderrBytes,
        killGraceMs: options.killGraceMs,
        logger: options.logger,
        secrets: secretValuesOf(config),
      });
      track(transport);
      phase.watchChild(transport);
      const client = createClient({ ...options, probeTimeoutMs: Math.min(STDIO_PROBE_TIMEOUT_MS, settings.connectTimeoutMs) });
      await connect(client, transport, prior);
      return { client, transport, kind: "stdio" as const, guard };
    };
    try {
      return await open(remembered);
    } catch (error) {
      // Some 2025 servers exit on a request they do not know before `initialize`: a new child, legacy.
      if (remembered || !isProbeFailure(error)) throw error;
      options.logger.info("protocol probe failed on stdio; starting again with the 2025-11-25 handshake", { server: server.name });
      signal.throwIfAborted();
      return await open({ kind: "legacy" });
    }
  }
  const provider = options.authProvider;
  // A wider scope the user has not granted yet: the old token would connect, and the status would
  // say "connected" while the tool that needs the scope keeps failing. Ask for Connect instead.
  const pendingScope = recordsStepUp(provider) ? await provider.pendingStepUp() : undefined;
  if (pendingScope) throw new StepUpRequiredError(server.name, pendingScope);
  const limitedFetch = (streamingLane: boolean) => {
    const capped = cappedFetch(options.fetch ?? globalThis.fetch, guard, { streamingLane });
    return recordsStepUp(provider) ? observeScopeChallenges(capped, provider, options.scopeChallenge) : capped;
  };
  const http = { url: config.url!, headers: config.headers, fetch: limitedFetch(false), authProvider: provider };
  if (!isLegacySseUrl(http.url)) {
    // Streamable HTTP reads answers from the Node request lane (lib/mcp/http-transport.ts).
    const transport = createStreamableTransport({ ...http, fetch: limitedFetch(true) });
    track(transport);
    const client = createClient(options);
    try {
      await connect(client, transport, remembered);
      return { client, transport, kind: "streamable_http", guard };
    } catch (error) {
      if (!shouldFallBackToSse(error)) throw error;
      options.logger.info("Streamable HTTP refused; falling back to legacy HTTP+SSE", { server: server.name });
      await closeQuietly(transport, options.logger);
      signal.throwIfAborted();
    }
  }
  const transport = createSseTransport(http);
  track(transport);
  const client = createClient(options);
  // HTTP+SSE predates the 2026 revision: no probe.
  await client.connect(limited(transport), { ...rpc, prior: { kind: "legacy" } });
  return { client, transport, kind: "sse", guard };
}

/** The `server/discover` probe itself failed (closed link, unusable answer): not a verdict on the server. */
function isProbeFailure(error: unknown): boolean {
  return error instanceof SdkError && error.code === SdkErrorCode.EraNegotiationFailed;
}

function contextFor(
  options: ConnectionOptions,
  phase: ErrorContext["phase"],
  transport: Transport | undefined,
  extra: Partial<ErrorContext>,
): ErrorContext {
  const child = transport instanceof ChildProcessTransport ? transport : undefined;
  return {
    serverName: options.server.name,
    phase,
    secrets: secretValuesOf(options.server.config),
    url: options.server.config.url,
    stderr: child?.stderrTail(),
    exit: child?.exitInfo,
    ...extra,
  };
}

async function closeQuietly(transport: Transport | undefined, logger: Logger): Promise<void> {
  try {
    await transport?.close();
  } catch (error) {
    // Closing after a failed connect: the original error is what the user needs to see.
    logger.debug("transport close after failed connect", { error: String(error) });
  }
}
