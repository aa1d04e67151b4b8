/**
 * Cluster coordination on Redis (`REDIS_URL`, node-redis). Counters are Lua scripts, so a check and
 * its count are one step on the Redis server whichever replica asks, and they read Redis's clock, so
 * replicas' clocks never disagree about a window. Keys carry a prefix and always a time to live:
 * nothing here outlives its use, and losing Redis loses only what docs/deployment.md lists.
 * A command while Redis is unreachable fails at once with `cluster.unavailable` (503), never queues.
 */
import { createHash, randomUUID } from "node:crypto";
import { createClient, type RedisClientType } from "redis";
import { AppError } from "../errors";
import type { Coordination, MessageHandler, Slot, Tally, WindowHit } from "./coordination";

const PREFIX = "switchboard:";

// KEYS[1] the slot set; ARGV: limit, hold ms, token. Members are tokens scored by when they lapse.
const TAKE_SLOT = `
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) * 2)
return 1`;

// KEYS: the slot sets; ARGV: hold ms, then one token per key. Keeps the held slots from lapsing.
const RENEW_SLOTS = `
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
local hold = tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, 'XX', now + hold, ARGV[i + 1])
  redis.call('PEXPIRE', key, hold * 2)
end
return 1`;

// KEYS[1] the window; ARGV: limit, window ms, a unique member. Answers {ms to wait (0: counted), hits in the window}.
const HIT_WINDOW = `
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
if count >= tonumber(ARGV[1]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {math.max(1, tonumber(oldest[2]) + window - now), count}
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], window)
return {0, count + 1}`;

// KEYS[1] the tally hash; ARGV: at, ttl ms.
const TALLY = `
local count = redis.call('HINCRBY', KEYS[1], 'count', 1)
redis.call('HSET', KEYS[1], 'at', ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
return count`;

const UNTALLY = `
local count = tonumber(redis.call('HGET', KEYS[1], 'count') or '0')
if count > 0 then redis.call('HINCRBY', KEYS[1], 'count', -1) end
return 1`;

// KEYS[1] the list; ARGV: entry, ttl ms. Answers the new length.
const APPEND = `
local length = redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
return length`;

/** How long a first subscription waits for its connection before answering 503. */
const SUBSCRIBE_CONNECT_MS = 2_000;

const shas = new Map<string, string>();

/** A script's SHA-1, as Redis names it in its script cache (computed once per script). */
function scriptSha(script: string): string {
  let sha = shas.get(script);
  if (!sha) {
    sha = createHash("sha1").update(script).digest("hex");
    shas.set(script, sha);
  }
  return sha;
}

/** How often held slots are renewed, as a share of their hold time. */
const RENEW_SHARE = 1 / 3;

/** Whether `error` says Redis could not be reached (as opposed to a script error). */
function unreachable(error: unknown): boolean {
  const text = String((error as Error)?.message ?? error);
  return /closed|offline|ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|Socket|connect|LOADING/i.test(text);
}

/** The 503 every command answers while Redis is unreachable (the cause goes to the log, not the client). */
function unavailable(): AppError {
  return new AppError(
    "cluster.unavailable",
    "The cluster's shared store (Redis) cannot be reached right now. Try again in a few seconds.",
    undefined,
    REDIS_RETRY_SECONDS,
  );
}

/** How soon a client may try again while Redis is out of reach (a restart takes a second or two). */
const REDIS_RETRY_SECONDS = 2;

/** Coordination through one Redis server: a command connection and a subscriber connection. */
export class RedisCoordination implements Coordination {
  readonly clustered = true;

  /** The connection is up and ready (node-redis's `isReady`; it turns false as soon as the socket closes). */
  get available(): boolean {
    return !this.closed && this.client.isReady;
  }
  private readonly client: RedisClientType;
  private subscriber: RedisClientType | null = null;
  private subscribing: Promise<RedisClientType> | null = null;
  private readonly handlers = new Map<string, Set<MessageHandler>>();
  /** Slots this process holds: key → hold ms and tokens, renewed together. */
  private readonly held = new Map<string, { holdMs: number; tokens: Set<string> }>();
  private renewTimer: NodeJS.Timeout | null = null;
  private closed = false;
  private lastWarned = 0;

  /** Connects lazily; `connected` resolves once the first connection is up. */
  readonly connected: Promise<void>;

  constructor(private readonly url: string) {
    this.client = createClient({
      url,
      disableOfflineQueue: true,
      socket: { connectTimeout: 5_000, reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 2_000) },
    }) as RedisClientType;
    // A lost connection is reported by the commands that fail; the client keeps reconnecting.
    this.client.on("error", () => {});
    this.connected = this.client.connect().then(() => undefined);
    this.connected.catch(() => {});
  }

  private async run<T>(command: (client: RedisClientType) => Promise<T>): Promise<T> {
    try {
      if (!this.client.isReady) await this.ready();
      return await command(this.client);
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw unreachable(error) ? this.unavailable(error) : error;
    }
  }

  /** `cluster.unavailable`, logging the cause at most every five seconds (an outage fails every request). */
  private unavailable(error: unknown): AppError {
    if (Date.now() - this.lastWarned > 5_000) {
      this.lastWarned = Date.now();
      console.warn(`redis ${this.describe()}: ${String((error as Error)?.message ?? error).slice(0, 200)}`);
    }
    return unavailable();
  }

  /** Wait for the first connection briefly; later outages fail fast (the client reconnects on its own). */
  private async ready(): Promise<void> {
    if (this.client.isOpen && !this.client.isReady) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("Redis connection is not ready")), 1_000);
      });
      try {
        await Promise.race([this.connected, timeout]);
      } finally {
        clearTimeout(timer);
      }
    }
    if (!this.client.isReady) throw new Error("Redis connection is offline");
  }

  /**
   * Run a script by its SHA-1 (`EVALSHA`): every quota check runs one, and sending its text each
   * time cost Redis a hash of it and both sides its bytes. A server that does not know the script
   * yet (first use, or after a restart emptied its cache) answers NOSCRIPT: the text is sent once
   * with `EVAL`, which caches it again.
   */
  private eval(script: string, keys: string[], args: (string | number)[]) {
    const options = { keys: keys.map((k) => PREFIX + k), arguments: args.map(String) };
    return this.run(async (client) => {
      try {
        return await client.evalSha(scriptSha(script), options);
      } catch (error) {
        if (!String((error as Error)?.message ?? "").startsWith("NOSCRIPT")) throw error;
        return await client.eval(script, options);
      }
    });
  }

  async takeSlot(key: string, limit: number, holdMs: number): Promise<Slot | null> {
    const token = randomUUID();
    const taken = await this.eval(TAKE_SLOT, [`slot:${key}`], [limit, holdMs, token]);
    if (Number(taken) !== 1) return null;
    const entry = this.held.get(key) ?? { holdMs, tokens: new Set<string>() };
    entry.tokens.add(token);
    this.held.set(key, entry);
    this.scheduleRenewal(holdMs);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        entry.tokens.delete(token);
        if (entry.tokens.size === 0 && this.held.get(key) === entry) this.held.delete(key);
        // A release that cannot reach Redis lapses on its own within the hold time.
        this.run((client) => client.zRem(`${PREFIX}slot:${key}`, token)).catch(() => {});
      },
    };
  }

  private scheduleRenewal(holdMs: number): void {
    if (this.renewTimer || this.closed) return;
    this.renewTimer = setInterval(() => void this.renew(), Math.max(250, holdMs * RENEW_SHARE));
    this.renewTimer.unref();
  }

  private async renew(): Promise<void> {
    if (this.held.size === 0) {
      if (this.renewTimer) clearInterval(this.renewTimer);
      this.renewTimer = null;
      return;
    }
    const byHold = new Map<number, { keys: string[]; tokens: string[] }>();
    for (const [key, { holdMs, tokens }] of this.held) {
      const batch = byHold.get(holdMs) ?? { keys: [], tokens: [] };
      byHold.set(holdMs, batch);
      for (const token of tokens) {
        batch.keys.push(`slot:${key}`);
        batch.tokens.push(token);
      }
    }
    // In batches, so a thousand open streams renew in a handful of commands.
    for (const [holdMs, { keys, tokens }] of byHold) {
      for (let i = 0; i < keys.length; i += 200) {
        await this.eval(RENEW_SLOTS, keys.slice(i, i + 200), [holdMs, ...tokens.slice(i, i + 200)]).catch(() => {});
      }
    }
  }

  async hitWindow(key: string, limit: number, windowMs: number): Promise<WindowHit> {
    const [wait, count] = (await this.eval(HIT_WINDOW, [`window:${key}`], [limit, windowMs, randomUUID()])) as [number, number];
    return { wait: Number(wait), count: Number(count) };
  }

  async tally(key: string, at: number, ttlMs: number): Promise<Tally> {
    const count = Number(await this.eval(TALLY, [`tally:${key}`], [at, ttlMs]));
    return { count, at };
  }

  async untally(key: string): Promise<void> {
    await this.eval(UNTALLY, [`tally:${key}`], []);
  }

  async readTally(key: string): Promise<Tally | null> {
    const fields = await this.run((client) => client.hGetAll(`${PREFIX}tally:${key}`));
    if (!fields || fields.count === undefined) return null;
    return { count: Number(fields.count), at: Number(fields.at) };
  }

  async put(key: string, value: string, ttlMs: number): Promise<void> {
    await this.run((client) => client.set(`${PREFIX}value:${key}`, value, { PX: Math.max(1, Math.round(ttlMs)) }));
  }

  async get(key: string): Promise<string | null> {
    return (await this.run((client) => client.get(`${PREFIX}value:${key}`))) ?? null;
  }

  async take(key: string): Promise<string | null> {
    return (await this.run((client) => client.getDel(`${PREFIX}value:${key}`))) ?? null;
  }

  async drop(key: string): Promise<void> {
    await this.run((client) => client.del([`${PREFIX}value:${key}`, `${PREFIX}tally:${key}`, `${PREFIX}list:${key}`]));
  }

  async append(key: string, entry: string, ttlMs: number): Promise<number> {
    return Number(await this.eval(APPEND, [`list:${key}`], [entry, Math.max(1, Math.round(ttlMs))])) - 1;
  }

  async range(key: string, from: number): Promise<string[] | null> {
    const [exists, entries] = await this.run((client) =>
      client.multi().exists(`${PREFIX}list:${key}`).lRange(`${PREFIX}list:${key}`, from, -1).exec(),
    );
    return Number(exists) ? (entries as unknown as string[]) : null;
  }

  async expire(key: string, ttlMs: number): Promise<void> {
    const ms = Math.max(1, Math.round(ttlMs));
    await this.run((client) =>
      client.multi().pExpire(`${PREFIX}value:${key}`, ms).pExpire(`${PREFIX}tally:${key}`, ms).pExpire(`${PREFIX}list:${key}`, ms).exec(),
    );
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.run((client) => client.publish(PREFIX + channel, message));
  }

  async subscribe(channel: string, handler: MessageHandler): Promise<() => Promise<void>> {
    const subscriber = await this.subscriberClient();
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      const handlers = set;
      try {
        await subscriber.subscribe(PREFIX + channel, (message) => {
          for (const each of handlers) {
            try {
              each(message);
            } catch (error) {
              console.warn(`a subscriber of ${channel} failed`, String(error));
            }
          }
        });
      } catch (error) {
        this.handlers.delete(channel);
        throw unreachable(error) ? this.unavailable(error) : error;
      }
    }
    set.add(handler);
    const handlers = set;
    return async () => {
      handlers.delete(handler);
      if (handlers.size > 0 || this.handlers.get(channel) !== handlers) return;
      this.handlers.delete(channel);
      await subscriber.unsubscribe(PREFIX + channel).catch(() => {});
    };
  }

  /** The subscriber connection, made once; node-redis subscribes again by itself after a reconnect. */
  private subscriberClient(): Promise<RedisClientType> {
    this.subscribing ??= (async () => {
      const subscriber = this.client.duplicate({ disableOfflineQueue: false }) as RedisClientType;
      subscriber.on("error", () => {});
      // The client retries a refused connect forever: past a short wait, answer 503 and try afresh next time.
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          subscriber.connect(),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error("Redis connection is not ready")), SUBSCRIBE_CONNECT_MS);
          }),
        ]);
      } catch (error) {
        this.subscribing = null;
        subscriber.destroy();
        throw this.unavailable(error);
      } finally {
        clearTimeout(timer);
      }
      this.subscriber = subscriber;
      return subscriber;
    })();
    return this.subscribing;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.renewTimer) clearInterval(this.renewTimer);
    this.renewTimer = null;
    const clients = [this.client, this.subscriber].filter((c): c is RedisClientType => c !== null);
    await Promise.all(clients.map((client) => (client.isOpen ? client.close().catch(() => client.destroy()) : undefined)));
  }

  /** The Redis URL without its password, for logs. */
  describe(): string {
    return this.url.replace(/\/\/[^@/]*@/, "//");
  }
}
