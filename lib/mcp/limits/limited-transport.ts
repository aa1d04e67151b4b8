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

const FLOOD_WINDOW_MS = 5000;
const USER_FACING_REQUESTS = new Set(["elicitation/create", "sampling/createMessage"]);

/** Wraps `inner`; give this to the SDK client and keep `inner` for transport-specific calls. */
export class LimitedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport["onmessage"];
  private readonly notifications: TokenBucket;
  private readonly serverRequests: TokenBucket;
  private readonly pendingServerRequests = new Set<RpcId>();
  private dropWindow = { start: 0, drops: 0 };

  constructor(
    readonly inner: Transport,
    private readonly guard: ConnectionGuard,
  ) {
    const { notificationsPerSecond, serverRequestsPerMinute } = guard.limits;
    this.notifications = new TokenBucket(notificationsPerSecond * 2, notificationsPerSecond, guard.now);
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
      if (requestId !== undefined) queueMicrotask(() => this.guard.abortRequest(requestId));
    }
    if (!("method" in message) && "id" in message && message.id !== undefined) this.pendingServerRequests.delete(message.id);
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private receive(message: JSONRPCMessage, extra: Parameters<NonNullable<Transport["onmessage"]>>[1]): void {
    if ("method" in message && !("id" in message)) {
      if (!this.notifications.take()) {
        this.noteDrop();
        return;
      }
    } else if ("method" in message && "id" in message && USER_FACING_REQUESTS.has(message.method)) {
      const refusal = this.refusal();
      if (refusal) {
        this.guard.noteRefusedServerRequest(refusal);
        void this.inner
          .send({ jsonrpc: "2.0", id: message.id, error: { code: -32000, message: refusal } })
          .catch((error: unknown) => this.onerror?.(error instanceof Error ? error : new Error(String(error))));
        return;
      }
      this.pendingServerRequests.add(message.id);
    }
    this.onmessage?.(message, extra);
  }

  /**
   * Count a dropped notification; past five seconds' worth of drops within five seconds the server
   * is flooding: its event streams are closed (reopening them spends the reconnect budget), because
   * even dropping costs a parse per message.
   */
  private noteDrop(): void {
    this.guard.noteDroppedNotification();
    const now = this.guard.now();
    if (now - this.dropWindow.start > FLOOD_WINDOW_MS) this.dropWindow = { start: now, drops: 0 };
    const { notificationsPerSecond } = this.guard.limits;
    if (++this.dropWindow.drops > (notificationsPerSecond * FLOOD_WINDOW_MS) / 1000) {
      this.dropWindow = { start: now, drops: 0 };
      this.guard.closeStreams(
        `the server sent notifications faster than ${notificationsPerSecond} per second; its event stream was closed (${raiseHint("notificationsPerSecond")})`,
      );
    }
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
