/**
 * Quotas with 429 (docs/limits.md): one user at their limits cannot take capacity from others.
 * Checked in lib: servers per workspace in the server service, API requests per minute where the
 * session is checked, concurrent calls and connections through the engine pool's admission hook,
 * concurrent chat turns around the chat stream, open event streams around `GET /api/events`.
 */
import type { PoolAdmission } from "../mcp";
import { MinuteWindow, SlotCounter } from "./counters";
import { QuotaError } from "./errors";
import { quotasFromEnv, type Quotas } from "./settings";

export { QuotaError } from "./errors";
export { DEFAULT_QUOTAS, QUOTA_ENV, quotasFromEnv, type Quotas } from "./settings";

const slot = globalThis as {
  __switchboardQuotas?: {
    quotas: Quotas;
    calls: SlotCounter;
    turns: SlotCounter;
    streams: SlotCounter;
    requests: MinuteWindow;
    reconnects: MinuteWindow;
  };
};

function state() {
  slot.__switchboardQuotas ??= {
    quotas: quotasFromEnv(),
    calls: new SlotCounter(),
    turns: new SlotCounter(),
    streams: new SlotCounter(),
    requests: new MinuteWindow(),
    reconnects: new MinuteWindow(),
  };
  return slot.__switchboardQuotas;
}

/** The quotas in force (read from the environment once). */
export function currentQuotas(): Quotas {
  return state().quotas;
}

/** Count one API request of `userId`; throws a 429 past the per-minute quota. */
export function enforceRequestRate(userId: string): void {
  const { quotas, requests } = state();
  const wait = requests.hit(userId, quotas.requestsPerMinute);
  if (wait > 0) throw new QuotaError("requestsPerMinute", quotas.requestsPerMinute, "API requests per minute", wait);
}

/**
 * Count one explicit reconnect of `userId` to `serverId`; throws a 429 past the per-minute quota.
 * Each reconnect makes the engine connect and discover again, reading up to the message cap from
 * the server: a loop of them was the largest cost a hostile neighbour put on everyone else.
 */
export function enforceReconnectRate(userId: string, serverId: string): void {
  const { quotas, reconnects } = state();
  const wait = reconnects.hit(`${userId}\n${serverId}`, quotas.reconnectsPerMinute);
  if (wait > 0) throw new QuotaError("reconnectsPerMinute", quotas.reconnectsPerMinute, "reconnects to one server per minute", wait);
}

/** Throws a 429 when a workspace already has as many servers as allowed. */
export function assertServerRoom(serverCount: number): void {
  const { serversPerWorkspace } = state().quotas;
  if (serverCount >= serversPerWorkspace) throw new QuotaError("serversPerWorkspace", serversPerWorkspace, "servers per workspace", 60);
}

/** Hold one of the user's chat-turn slots until the returned function runs; 429 when all are taken. */
export function acquireTurn(userId: string): () => void {
  const { quotas, turns } = state();
  const release = turns.acquire(userId, quotas.concurrentTurnsPerUser);
  if (!release) throw new QuotaError("concurrentTurnsPerUser", quotas.concurrentTurnsPerUser, "chat answers running at once", 5);
  return release;
}

// The instance-wide count of event streams, kept beside the per-user ones (user ids never contain a newline).
const ALL_STREAMS = "\n*";

/**
 * Hold one of the user's live event streams until the returned function runs; 429 past the user's
 * or the instance's cap. Each stream holds a socket and a timer for as long as the tab is open.
 */
export function acquireEventStream(userId: string): () => void {
  const { quotas, streams } = state();
  const mine = streams.acquire(userId, quotas.eventStreamsPerUser);
  if (!mine) throw new QuotaError("eventStreamsPerUser", quotas.eventStreamsPerUser, "live event streams per user (browser tabs)", 10);
  const all = streams.acquire(ALL_STREAMS, quotas.eventStreamsTotal);
  if (!all) {
    mine();
    throw new QuotaError("eventStreamsTotal", quotas.eventStreamsTotal, "live event streams on this instance", 10);
  }
  return () => {
    mine();
    all();
  };
}

/** The engine pool's admission hook: concurrent calls per user, connections per user and instance. */
export const poolAdmission: PoolAdmission = {
  call(userId) {
    const { quotas, calls } = state();
    const release = calls.acquire(userId, quotas.concurrentCallsPerUser);
    if (!release) throw new QuotaError("concurrentCallsPerUser", quotas.concurrentCallsPerUser, "tool calls running at once", 2);
    return release;
  },
  // Past it the pool first closes its least recently used idle connection; `connect` refuses only when none could be.
  connectionCeiling: () => state().quotas.connectionsTotal,
  sandboxCeiling: () => state().quotas.sandboxesTotal,
  connect(_userId, server, live) {
    const { quotas } = state();
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
