/**
 * `PoolOptions` with defaults applied, shared by the pool and each managed server.
 */
import type { FetchLike } from "@modelcontextprotocol/client";
import { realClock, type Clock } from "./clock";
import { defaultEngineFetch } from "./default-fetch";
import { erasFor, type EraCache } from "./era";
import { DEFAULT_PING_INTERVAL_MS, DEFAULT_PINGS_PER_SECOND, HealthPings } from "./health-ping";
import { unwrappedLaunch, type LaunchWrapper } from "./launch";
import { resolveEngineLimits, type EngineLimits } from "./limits";
import { silentLogger, type Logger } from "./logger";
import { DEFAULT_MAX_MESSAGE_BYTES } from "./stdio-transport";
import type { PoolOptions } from "./types";

/** PoolOptions after defaults. */
export type ResolvedPoolOptions = Omit<
  PoolOptions,
  "launchWrapper" | "clock" | "logger" | "idleTimeoutMs" | "maxMessageBytes" | "clientVersion" | "limits" | "turnWaitMs" | "fetch"
> & {
  fetch: FetchLike;
  turnWaitMs: number;
  limits: EngineLimits;
  launchWrapper: LaunchWrapper;
  clock: Clock;
  logger: Logger;
  idleTimeoutMs: number;
  maxMessageBytes: number;
  clientVersion: string;
  /** Protocol era verdicts shared by the pool's connections (and, on the real clock, by every pool). */
  eras: EraCache;
  /** The pool's one ping scheduler for idle HTTP connections. */
  health: HealthPings;
};

/** Apply the documented defaults of every `PoolOptions` field. */
export function resolvePoolOptions(options: PoolOptions = {}): ResolvedPoolOptions {
  return {
    ...options,
    launchWrapper: options.launchWrapper ?? unwrappedLaunch,
    fetch: options.fetch ?? defaultEngineFetch(),
    clock: options.clock ?? realClock,
    logger: options.logger ?? silentLogger,
    idleTimeoutMs: options.idleTimeoutMs ?? 0,
    maxMessageBytes: options.maxMessageBytes ?? options.limits?.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
    // `maxMessageBytes` (older option) and `limits.maxMessageBytes` name the same cap.
    limits: resolveEngineLimits({
      ...options.limits,
      maxMessageBytes: options.maxMessageBytes ?? options.limits?.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
    }),
    clientVersion: options.clientVersion ?? "0.1.0",
    turnWaitMs: options.turnWaitMs ?? 10_000,
    eras: erasFor(options.clock ?? realClock),
    health: new HealthPings(options.clock ?? realClock, {
      intervalMs: Math.max(0, options.pingIntervalMs ?? DEFAULT_PING_INTERVAL_MS),
      perSecond: options.pingsPerSecond ?? DEFAULT_PINGS_PER_SECOND,
    }),
  };
}
