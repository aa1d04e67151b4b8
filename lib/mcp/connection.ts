/**
 * One live MCP session for one (user, server): opens the transport through its opener (open-stdio.ts,
 * open-http.ts), initializes, discovers, and runs requests. Every SDK error is translated here, once.
 */
import type { Client, PriorDiscovery, StreamableHTTPClientTransport, Transport } from "@modelcontextprotocol/client";
import {
  ProtocolError,
  UrlElicitationRequiredError,
  type LoggingLevel,
  type CallToolResult,
  type CompleteRequest,
  type GetPromptResult,
  type ReadResourceResult,
} from "@modelcontextprotocol/client";
import { secretValuesOf } from "../redact";
import { startCallDeadline } from "./call-deadline";
import { withRoundTrip } from "./client-relay";
import { ConnectPhase } from "./connect-phase";
import type { ConnectionOptions } from "./connection-options";
import type { Era } from "./era";
import { StepUpRequiredError } from "./step-up";
import { effectiveSettings } from "./config";
import { discover, type Discovered, type ListKind } from "./discovery";
import { EngineError } from "./errors";
import { callToolAsTask, shouldCallAsTask, taskSupportOf } from "./tasks";
import { isLegacySseUrl } from "./http-transport";
import { openSse, openStreamableHttp } from "./open-http";
import { openStdio } from "./open-stdio";
import { ChildProcessTransport } from "./stdio-transport";
import { ConnectionGuard, LimitedStdioTransport, LimitedTransport, type LimitCounters } from "./limits";
import { closeQuietly, type OpenedTransport, type TransportOpener } from "./transport-opener";
import { closedDuring, connectTimeout, translateError, type ErrorContext } from "./translate-error";
import type { Pingable } from "./health-ping";
import type { ForwardedMethod } from "./placement";
import type { CallOptions, TransportUsed } from "./types";

export type { ConnectionOptions } from "./connection-options";

/** A connected, discovered session. */
export class Connection implements Pingable {
  private closing = false;
  ready = false;
  /** Clock time a request last started or ended here (health pings wait for idleness). */
  lastActivityAt: number;
  /** Requests in flight. */
  pending = 0;

  constructor(
    readonly client: Client,
    readonly transport: Transport,
    readonly kind: TransportUsed,
    public discovered: Discovered,
    private readonly options: ConnectionOptions,
    private readonly guard: ConnectionGuard,
  ) {
    this.lastActivityAt = options.clock.now();
  }

  /** Whether close() was called (or the owner dropped it). */
  get closed(): boolean {
    return this.closing;
  }

  /** MCP `ping` (lib/mcp/health-ping.ts): any answer, an error response too, means the server is there. */
  async ping(timeoutMs: number): Promise<void> {
    try {
      // 2026-07-28 has no `ping` (the SDK refuses to send it); its stateless `server/discover` asks the same.
      await (this.era === "modern" ? this.client.discover({ timeout: timeoutMs }) : this.client.ping({ timeout: timeoutMs }));
    } catch (error) {
      if (error instanceof ProtocolError) return;
      const failure = translateError(error, this.errorContext("call", { timeoutMs }));
      if (failure.code !== "call_timeout") throw failure;
      const name = this.options.identity.server.name;
      throw new EngineError("unreachable", `server "${name}" did not answer a ping within ${timeoutMs / 1000} s`, { cause: error });
    }
  }

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
      // A 2026-07-28 gateway client's own round trip: an input_required answer goes back to it (client-relay.ts).
      const call = () =>
        withRoundTrip<CallToolResult>(this.era === "modern", { content: [] }, (leg) =>
          this.client.callTool(
            { name, arguments: args, ...leg.params },
            {
              // The definition listed at discovery: the SDK mirrors its declared headers and checks its output schema.
              toolDefinition: tool,
              timeout: bounded.timeoutMs,
              resetTimeoutOnProgress: true,
              // Always pass onprogress: the SDK only sends a progress token (and resets the timeout) with one.
              onprogress: (progress) => options.onProgress?.(progress),
              signal: bounded.signal,
              ...leg.options,
            },
          ),
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
    const { onElicitation } = this.options.hooks;
    const { userId, server } = this.options.identity;
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
      withRoundTrip<GetPromptResult>(this.era === "modern", { messages: [] }, (leg) =>
        this.client.getPrompt(
          { name, arguments: args, ...leg.params },
          { timeout: options.timeoutMs, signal: options.signal, ...leg.options },
        ),
      ),
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

  /**
   * A request another process's relay forwarded here (lib/mcp/placement.ts), one of the spec methods
   * in `FORWARDED_METHODS`, sent as is; the result is returned as the server gave it.
   */
  forward(
    method: ForwardedMethod,
    params: Record<string, unknown> | undefined,
    options: CallOptions & { timeoutMs: number },
  ): Promise<unknown> {
    return this.request(options, () => this.client.request({ method, params }, { timeout: options.timeoutMs, signal: options.signal }));
  }

  /** Re-list after a list_changed notification. */
  async refresh(kind: ListKind): Promise<Discovered> {
    const { server } = this.options.identity;
    const settings = effectiveSettings(server.config);
    this.discovered = await this.request({ timeoutMs: settings.connectTimeoutMs }, () =>
      discover(this.client, {
        timeoutMs: settings.connectTimeoutMs,
        logger: this.options.logger,
        only: kind,
        previous: this.discovered,
        limits: this.options.limits,
        serverName: server.name,
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
    if (!this.closing && this.ready) this.options.hooks.onUnexpectedClose();
  }

  private async request<T>(options: CallOptions & { timeoutMs: number }, run: () => Promise<T>): Promise<T> {
    this.pending++;
    this.lastActivityAt = this.options.clock.now();
    try {
      return await run();
    } catch (error) {
      // The server asked for a wider scope than the token has: only a new authorization can help.
      const scope = this.options.hooks.scopeChallenge.take();
      if (scope) {
        throw new StepUpRequiredError(this.options.identity.server.name, scope, { cause: error });
      }
      throw translateError(error, this.errorContext("call", { timeoutMs: options.timeoutMs, signal: options.signal }));
    } finally {
      this.pending--;
      this.lastActivityAt = this.options.clock.now();
    }
  }
}

/** Open, initialize and discover within `connect_timeout`; the error says specifically what failed. */
export async function openConnection(options: ConnectionOptions): Promise<Connection> {
  const { server } = options.identity;
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

/** The opener for a server's config: stdio for a command, HTTP+SSE for a legacy `/sse` URL, else Streamable HTTP. */
function openerFor(options: ConnectionOptions): TransportOpener {
  const { config } = options.identity.server;
  if (config.command !== undefined) return openStdio;
  return isLegacySseUrl(config.url!) ? openSse : openStreamableHttp;
}

async function connectTransport(
  options: ConnectionOptions,
  signal: AbortSignal,
  phase: ConnectPhase,
  track: (transport: Transport) => void,
): Promise<OpenedTransport> {
  const { eras, eraKey } = options.transport;
  // One guard per connection: its caps, rates and reopen budget hold across every wire it opens.
  const guard = new ConnectionGuard(options.limits, () => options.clock.now());
  phase.watchGuard(guard);
  const limited = (transport: Transport) =>
    transport instanceof ChildProcessTransport ? new LimitedStdioTransport(transport, guard) : new LimitedTransport(transport, guard);
  const rpc = { timeout: effectiveSettings(options.identity.server.config).connectTimeoutMs, signal };
  const connect = async (client: Client, transport: Transport, prior: PriorDiscovery | undefined, { rememberEra = true } = {}) => {
    const key = rememberEra ? eraKey : undefined;
    try {
      await client.connect(limited(transport), { ...rpc, ...(prior ? { prior } : {}) });
    } catch (error) {
      if (key) eras?.forget(key);
      throw error;
    }
    if (key) eras?.remember(key, client.getProtocolEra());
  };
  const remembered = eraKey ? eras?.prior(eraKey) : undefined;
  return openerFor(options)({ options, signal, phase, guard, track, remembered, connect, rpc });
}

function contextFor(
  options: ConnectionOptions,
  phase: ErrorContext["phase"],
  transport: Transport | undefined,
  extra: Partial<ErrorContext>,
): ErrorContext {
  const child = transport instanceof ChildProcessTransport ? transport : undefined;
  return {
    serverName: options.identity.server.name,
    phase,
    secrets: secretValuesOf(options.identity.server.config),
    url: options.identity.server.config.url,
    stderr: child?.stderrTail(),
    exit: child?.exitInfo,
    // A 400 answered to a request that carried a session id means the session is unknown (issue 30).
    sessionId: transport?.sessionId,
    ...extra,
  };
}
