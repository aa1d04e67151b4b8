/**
 * A Transport in front of the real one that applies the per-connection message limits every wire
 * shares: notifications over the rate are dropped (counted in the status), elicitation and sampling
 * requests over the rate or the pending bound are refused with an error to the server instead of
 * queueing forms for the user, and a call the client cancels or times out aborts its HTTP response.
 */
import type { JSONRPCMessage, Transport, TransportSendOptions } from "@modelcontextprotocol/client";
import type { ConnectionGuard, RpcId } from "./connection-guard";
import { TokenBucket } from "./rate-limiter";
import { raiseHint } from "./settings";

const USER_FACING_REQUESTS = new Set(["elicitation/create", "sampling/createMessage"]);

/**
 * Answers to the server's own requests sent at once per connection. Over HTTP each answer is a
 * POST, so a server that sends a hundred requests together would otherwise make the app open about
 * a hundred sockets to it; the rest wait their turn (an answer's POST is acknowledged at once).
 */
export const MAX_ANSWERS_IN_FLIGHT = 4;

/** Runs at most `limit` sends at a time, in arrival order. */
class SendQueue {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run(send: () => Promise<void>): Promise<void> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    try {
      await send();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }
}

/** Wraps `inner`; give this to the SDK client and keep `inner` for transport-specific calls. */
export class LimitedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport["onmessage"];
  private readonly serverRequests: TokenBucket;
  private readonly pendingServerRequests = new Set<RpcId>();
  private readonly answers = new SendQueue(MAX_ANSWERS_IN_FLIGHT);

  constructor(
    readonly inner: Transport,
    private readonly guard: ConnectionGuard,
  ) {
    const { serverRequestsPerMinute } = guard.limits;
    this.serverRequests = new TokenBucket(serverRequestsPerMinute, serverRequestsPerMinute / 60, guard.now);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  start(): Promise<void> {
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onmessage = (message, extra) => this.receive(message, extra);
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if ("method" in message && message.method === "notifications/cancelled") {
      const requestId = (message.params as { requestId?: RpcId } | undefined)?.requestId;
      // The client gave up on this call (cancel or timeout): end its response so its socket is freed.
      if (requestId !== undefined) {
        this.guard.noteSettled(requestId);
        queueMicrotask(() => this.guard.abortRequest(requestId));
      }
    }
    if ("method" in message && "id" in message && message.id !== undefined) this.guard.noteAwaiting(message.id);
    if (!("method" in message) && "id" in message && message.id !== undefined) {
      this.pendingServerRequests.delete(message.id);
      return this.answers.run(() => this.inner.send(message, options));
    }
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private receive(message: JSONRPCMessage, extra: Parameters<NonNullable<Transport["onmessage"]>>[1]): void {
    if (!("method" in message) && "id" in message && message.id !== undefined) this.guard.noteSettled(message.id);
    if ("method" in message && !("id" in message)) {
      // Over the rate: dropped and counted; a flood closes the event stream (ConnectionGuard).
      if (!this.guard.takeNotification()) {
        this.guard.noteDroppedNotification();
        return;
      }
    } else if ("method" in message && "id" in message && USER_FACING_REQUESTS.has(message.method)) {
      const refusal = this.refusal();
      if (refusal) {
        this.guard.noteRefusedServerRequest(refusal);
        const id = message.id;
        void this.answers
          .run(() => this.inner.send({ jsonrpc: "2.0", id, error: { code: -32000, message: refusal } }))
          .catch((error: unknown) => this.onerror?.(error instanceof Error ? error : new Error(String(error))));
        return;
      }
      this.pendingServerRequests.add(message.id);
    }
    this.onmessage?.(message, extra);
  }

  private refusal(): string | null {
    const { maxPendingServerRequests, serverRequestsPerMinute } = this.guard.limits;
    if (this.pendingServerRequests.size >= maxPendingServerRequests) {
      return `too many requests to the user at once (${maxPendingServerRequests} pending; ${raiseHint("maxPendingServerRequests")})`;
    }
    if (!this.serverRequests.take()) {
      return `too many requests to the user (over ${serverRequestsPerMinute} per minute; ${raiseHint("serverRequestsPerMinute")})`;
    }
    return null;
  }
}

/**
 * The limits in front of a stdio child: shows the SDK the child's `pid` and `stderr`, which is how
 * it recognises a stdio link, so a `server/discover` probe that times out falls back to the
 * 2025-11-25 handshake on the same process instead of failing the connect.
 */
export class LimitedStdioTransport extends LimitedTransport {
  constructor(
    private readonly child: Transport & { readonly pid: number | null },
    guard: ConnectionGuard,
  ) {
    super(child, guard);
  }

  /** PID of the child. */
  get pid(): number | null {
    return this.child.pid;
  }

  /** Present for the SDK's structural stdio check; the stderr tail is read from the child transport. */
  get stderr(): null {
    return null;
  }
}
