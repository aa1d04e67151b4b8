/**
 * Quotas with 429 (docs/limits.md): one user at their limits cannot take capacity from others.
 * Checked in lib: servers per workspace in the server service, API requests per minute where the
 * session is checked, concurrent calls and connections through the engine pool's admission hook,
 * concurrent chat turns around the chat stream, open event streams around `GET /api/events`.
 *
 * Every count but the connection counts lives in the coordination (lib/cluster): with `REDIS_URL`
 * in Redis, so a quota counts a user's requests, calls, turns and streams on every replica
 * together; without it in this process's memory, as before cluster mode. Connections are a
 * replica's own (docs/limits.md#per-replica-limits).
 */
import { type Coordination, coordination, type Slot } from "../cluster";
import type { PoolAdmission } from "../mcp";
import { singleton } from "../singleton";
import { QuotaError } from "./errors";
import { quotasFromEnv, type Quotas } from "./settings";
import { WindowEcho } from "./window-echo";

export { QuotaError } from "./errors";
export { DEFAULT_QUOTAS, QUOTA_ENV, quotasFromEnv, type Quotas } from "./settings";

/**
 * How long a held slot (a call, a turn, an event stream) outlives its holder's last renewal. In
 * cluster mode the holder renews its slots every third of this (lib/cluster/redis.ts), so a live
 * holder keeps a slot however long the call, turn or tab lasts, while the slots of a replica that
 * died (`kill -9`, a lost machine) free themselves within 15 s: long enough that a Redis restart
 * of a second or two costs no live holder its slot, short enough that a user whose replica died
 * is not refused for long.
 */
export const SLOT_HOLD_MS = 15_000;

const MINUTE_MS = 60_000;

/** The quotas in force (read from the environment once per process). */
export function currentQuotas(): Quotas {
  return singleton("quotas.settings", () => quotasFromEnv());
}

/** In single-node mode a slot is taken without a promise (the in-process coordination's `takeSlotNow`). */
interface TakesSlotNow {
  takeSlotNow(key: string, limit: number): Slot | null;
}

function takesSlotNow(store: Coordination): store is Coordination & TakesSlotNow {
  return typeof (store as Partial<TakesSlotNow>).takeSlotNow === "function";
}

/** The seconds of `Retry-After` for a window's wait in milliseconds (at least one). */
function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/**
 * The quotas over one coordination. The app has one (`gate`, over the process's coordination);
 * a test makes one per coordination to stand for several replicas.
 */
export class QuotaGate {
  /** The engine pool's admission hook: concurrent calls per user, connections per user and per replica. */
  readonly admission: PoolAdmission;

  /** What the coordination last answered for each request window (cluster mode only). */
  private readonly requestEcho: WindowEcho;

  /** `store` gives the coordination at each use; `quotas` the limits in force; `now` the echo's clock. */
  constructor(
    private readonly store: () => Coordination = coordination,
    private readonly quotas: () => Quotas = currentQuotas,
    now?: () => number,
  ) {
    this.requestEcho = new WindowEcho(now);
    this.admission = {
      call: (userId) => this.acquireCall(userId),
      // Past it the pool first closes its least recently used idle connection; `connect` refuses only when none could be.
      connectionCeiling: () => this.quotas().connectionsTotal,
      sandboxCeiling: () => this.quotas().sandboxesTotal,
      // Counted by this replica's pool: connections are a replica's own (a user's server on two
      // replicas is two connections), and so is the capacity these limits protect.
      connect: (_userId, server, live) => {
        const quotas = this.quotas();
        if (live.user >= quotas.connectionsPerUser) {
          throw new QuotaError("connectionsPerUser", quotas.connectionsPerUser, "open server connections per user", 30);
        }
        if (live.total >= quotas.connectionsTotal) {
          throw new QuotaError("connectionsTotal", quotas.connectionsTotal, "open server connections on this instance", 30);
        }
        if (server.config.command !== undefined && live.sandboxes >= quotas.sandboxesTotal) {
          throw new QuotaError("sandboxesTotal", quotas.sandboxesTotal, "sandboxed server processes on this instance", 30);
        }
      },
    };
  }

  /**
   * Count one API request of `userId`; rejects with a 429 past the per-minute quota. In cluster mode
   * a request far below the quota (lib/quotas/window-echo.ts) is counted without waiting for Redis's
   * answer: a round trip less on every API request, the count as exact as before.
   */
  async enforceRequestRate(userId: string): Promise<void> {
    const { requestsPerMinute } = this.quotas();
    const key = `quota:requests:${userId}`;
    const store = this.store();
    if (store.clustered && store.available && this.requestEcho.farBelow(key, requestsPerMinute)) {
      // Still counted; a failure (Redis lost) only leaves the echo to age, and the requests after it wait again.
      this.countRequest(store, key, requestsPerMinute).catch(() => {});
      return;
    }
    const wait = await this.countRequest(store, key, requestsPerMinute);
    if (wait > 0) throw new QuotaError("requestsPerMinute", requestsPerMinute, "API requests per minute", seconds(wait));
  }

  /** Count one hit of the request window `key`, telling the echo what the coordination answered; resolves to the wait. */
  private async countRequest(store: Coordination, key: string, limit: number): Promise<number> {
    const seq = this.requestEcho.sent(key);
    try {
      const { wait, count } = await store.hitWindow(key, limit, MINUTE_MS);
      this.requestEcho.heard(key, seq, count);
      return wait;
    } finally {
      this.requestEcho.settled(key);
    }
  }

  /**
   * Count one explicit reconnect of `userId` to `serverId`; rejects with a 429 past the per-minute
   * quota. Each reconnect makes the engine connect and discover again, reading up to the message
   * cap from the server: a loop of them was the largest cost a hostile neighbour put on everyone else.
   */
  async enforceReconnectRate(userId: string, serverId: string): Promise<void> {
    const { reconnectsPerMinute } = this.quotas();
    // Ids are UUIDs (no colon), so no two (user, server) pairs share a key.
    const { wait } = await this.store().hitWindow(`quota:reconnects:${userId}:${serverId}`, reconnectsPerMinute, MINUTE_MS);
    if (wait > 0) throw new QuotaError("reconnectsPerMinute", reconnectsPerMinute, "reconnects to one server per minute", seconds(wait));
  }

  /** Hold one of the user's chat-turn slots until the returned function runs; rejects with a 429 when all are taken. */
  async acquireTurn(userId: string): Promise<() => void> {
    const { concurrentTurnsPerUser } = this.quotas();
    const slot = await this.store().takeSlot(`quota:turns:${userId}`, concurrentTurnsPerUser, SLOT_HOLD_MS);
    if (!slot) throw new QuotaError("concurrentTurnsPerUser", concurrentTurnsPerUser, "chat answers running at once", 5);
    return () => slot.release();
  }

  /**
   * Hold one of the user's live event streams until the returned function runs; rejects with a 429
   * past the user's or the instance's cap. Each stream holds a socket and a timer for as long as
   * the tab is open.
   */
  async acquireEventStream(userId: string): Promise<() => void> {
    const { eventStreamsPerUser, eventStreamsTotal } = this.quotas();
    const store = this.store();
    const mine = await store.takeSlot(`quota:streams:${userId}`, eventStreamsPerUser, SLOT_HOLD_MS);
    if (!mine) throw new QuotaError("eventStreamsPerUser", eventStreamsPerUser, "live event streams per user (browser tabs)", 10);
    let all: Slot | null;
    try {
      all = await store.takeSlot("quota:streams", eventStreamsTotal, SLOT_HOLD_MS);
    } catch (error) {
      mine.release();
      throw error;
    }
    if (!all) {
      mine.release();
      throw new QuotaError("eventStreamsTotal", eventStreamsTotal, "live event streams on this instance", 10);
    }
    const total = all;
    return () => {
      mine.release();
      total.release();
    };
  }

  /**
   * One of the user's concurrent-call slots, or a 429. Every tool call passes here (thousands a
   * second): in single-node mode the slot is taken synchronously, so a call pays no extra await.
   */
  private acquireCall(userId: string): (() => void) | Promise<() => void> {
    const { concurrentCallsPerUser } = this.quotas();
    const key = `quota:calls:${userId}`;
    const admitted = (slot: Slot | null) => {
      if (!slot) throw new QuotaError("concurrentCallsPerUser", concurrentCallsPerUser, "tool calls running at once", 2);
      return () => slot.release();
    };
    const store = this.store();
    if (takesSlotNow(store)) return admitted(store.takeSlotNow(key, concurrentCallsPerUser));
    return store.takeSlot(key, concurrentCallsPerUser, SLOT_HOLD_MS).then(admitted);
  }
}

// The app's quotas: every count is in the process's coordination, so this object holds none.
const gate = new QuotaGate();

/** Count one API request of `userId`; rejects with a 429 past the per-minute quota. */
export function enforceRequestRate(userId: string): Promise<void> {
  return gate.enforceRequestRate(userId);
}

/** Count one explicit reconnect of `userId` to `serverId`; rejects with a 429 past the per-minute quota. */
export function enforceReconnectRate(userId: string, serverId: string): Promise<void> {
  return gate.enforceReconnectRate(userId, serverId);
}

/** Throws a 429 when a workspace already has as many servers as allowed (counted in the database). */
export function assertServerRoom(serverCount: number): void {
  const { serversPerWorkspace } = currentQuotas();
  if (serverCount >= serversPerWorkspace) throw new QuotaError("serversPerWorkspace", serversPerWorkspace, "servers per workspace", 60);
}

/** Hold one of the user's chat-turn slots until the returned function runs; rejects with a 429 when all are taken. */
export function acquireTurn(userId: string): Promise<() => void> {
  return gate.acquireTurn(userId);
}

/** Hold one of the user's and one of the instance's live event streams until the returned function runs (429 past either). */
export function acquireEventStream(userId: string): Promise<() => void> {
  return gate.acquireEventStream(userId);
}

/** The engine pool's admission hook: concurrent calls per user, connections per user and per replica. */
export const poolAdmission: PoolAdmission = gate.admission;

/** `stream`, calling `release` once when it ends, fails or is cancelled (the turn slot's lifetime). */
export function releasedAtEnd<T>(stream: ReadableStream<T>, release: () => void): ReadableStream<T> {
  const reader = stream.getReader();
  return new ReadableStream<T>({
    async pull(controller) {
      try {
        const { value, done } = await reader.read();
        if (done) {
          release();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        release();
        controller.error(error);
      }
    },
    async cancel(reason) {
      release();
      await reader.cancel(reason);
    },
  });
}
