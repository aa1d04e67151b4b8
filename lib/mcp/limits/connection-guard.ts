/**
 * The per-connection state the limits share: the caps, the stream reopen budget, the requests in
 * flight over HTTP (so a cancelled or timed-out call can abort its response and free its socket),
 * and the counters the status shows.
 */
import { LIMIT_EXCEEDED_RPC_CODE } from "../errors";
import { TokenBucket } from "./rate-limiter";
import { ReconnectBudget } from "./reconnect-budget";
import { raiseHint, type EngineLimits } from "./settings";

const FLOOD_WINDOW_MS = 5000;

/** A JSON-RPC request id. */
export type RpcId = string | number;

/** What the status shows about one connection's limits. */
export interface LimitCounters {
  /** Messages refused for size, depth or width. */
  refusedMessages: number;
  /** Notifications dropped by the rate limit. */
  droppedNotifications: number;
  /** Elicitation/sampling requests refused by the rate limit. */
  refusedServerRequests: number;
  /** Stream opens used of the budget; `exhausted` once no reopen is allowed. */
  streamOpens: { opens: number; max: number; exhausted: boolean };
  /** The last refusal, redacted text. */
  lastRefusal: string | null;
}

/** Shared limit state of one connection. */
export class ConnectionGuard {
  readonly budget: ReconnectBudget;
  private readonly notifications: TokenBucket;
  private dropWindow = { start: 0, drops: 0 };
  private readonly inflight = new Map<RpcId, AbortController>();
  private readonly awaiting = new Set<RpcId>();
  /**
   * Set while connecting: a message discarded for a cap that answers no request anyone can name
   * fails the connect at once (whatever it waits for may be that message).
   */
  onUnattributedRefusal?: (reason: string) => void;
  private readonly streams = new Set<AbortController>();
  private refusedMessages = 0;
  private droppedNotifications = 0;
  private refusedServerRequests = 0;
  private lastRefusal: string | null = null;

  constructor(
    readonly limits: EngineLimits,
    readonly now: () => number,
  ) {
    this.budget = new ReconnectBudget(limits.maxStreamOpens, now);
    this.notifications = new TokenBucket(limits.notificationsPerSecond * 2, limits.notificationsPerSecond, now);
  }

  /** Take a notification's place in the rate; false when the server is over it (drop the notification). */
  takeNotification(): boolean {
    return this.notifications.take();
  }

  /** Whether a notification would pass the rate now (nothing taken). */
  notificationWouldPass(): boolean {
    return this.notifications.available();
  }

  /** Remember which HTTP request carries `ids`, so `abortRequest` can end its response. */
  track(ids: RpcId[], controller: AbortController): () => void {
    for (const id of ids) this.inflight.set(id, controller);
    return () => {
      for (const id of ids) if (this.inflight.get(id) === controller) this.inflight.delete(id);
    };
  }

  /** The client sent request `id` and awaits its answer (on whichever stream it comes). */
  noteAwaiting(id: RpcId): void {
    this.awaiting.add(id);
  }

  /** Request `id` was answered or given up on. */
  noteSettled(id: RpcId): void {
    this.awaiting.delete(id);
  }

  /** Whether the client still awaits request `id`: only then may a discarded message fail it. */
  isAwaiting(id: RpcId): boolean {
    return this.awaiting.has(id);
  }

  /** Remember a standalone event stream so a flood can close it; returns the forget function. */
  trackStream(controller: AbortController): () => void {
    this.streams.add(controller);
    return () => this.streams.delete(controller);
  }

  /** Close the standalone event streams (a notification flood); reopening them uses the budget. */
  closeStreams(reason: string): void {
    this.lastRefusal = reason;
    for (const controller of this.streams) controller.abort(new Error(reason));
    this.streams.clear();
  }

  /** End the HTTP response of a request the client gave up on (timeout, cancel): frees its socket. */
  abortRequest(id: RpcId): void {
    const controller = this.inflight.get(id);
    this.inflight.delete(id);
    controller?.abort(new Error("the call was cancelled"));
  }

  /** Count a refused message; `reason` is kept for the status. */
  noteRefused(reason: string): void {
    this.refusedMessages++;
    this.lastRefusal = reason;
  }

  /**
   * Count a dropped notification; past five seconds' worth of drops within five seconds the server
   * is flooding: its event streams are closed (reopening them spends the reconnect budget).
   */
  noteDroppedNotification(): void {
    this.droppedNotifications++;
    const now = this.now();
    if (now - this.dropWindow.start > FLOOD_WINDOW_MS) this.dropWindow = { start: now, drops: 0 };
    const { notificationsPerSecond } = this.limits;
    if (++this.dropWindow.drops > (notificationsPerSecond * FLOOD_WINDOW_MS) / 1000) {
      this.dropWindow = { start: now, drops: 0 };
      this.closeStreams(
        `the server sent notifications faster than ${notificationsPerSecond} per second; its event stream was closed (${raiseHint("notificationsPerSecond")})`,
      );
    }
  }

  /** Count a refused server request. */
  noteRefusedServerRequest(reason: string): void {
    this.refusedServerRequests++;
    this.lastRefusal = reason;
  }

  /** Counters for the status. */
  snapshot(): LimitCounters {
    return {
      refusedMessages: this.refusedMessages,
      droppedNotifications: this.droppedNotifications,
      refusedServerRequests: this.refusedServerRequests,
      streamOpens: this.budget.snapshot(),
      lastRefusal: this.lastRefusal,
    };
  }
}

/** A JSON-RPC error response that fails request `id` with `message` (the caller sees it at once). */
export function limitErrorResponse(id: RpcId, message: string, code = LIMIT_EXCEEDED_RPC_CODE) {
  return { jsonrpc: "2.0" as const, id, error: { code, message } };
}
