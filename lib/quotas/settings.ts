/**
 * Per-user and per-instance quotas (docs/limits.md): generous defaults for a team, each one an
 * environment variable read when first needed.
 */
import { type EnvBag, environment } from "../env";

/** Every quota; each field's default is in `DEFAULT_QUOTAS`. */
export interface Quotas {
  /** Servers in one workspace. Default 100. */
  serversPerWorkspace: number;
  /** Live MCP connections of one user. Default 50. */
  connectionsPerUser: number;
  /** Tool calls one user runs at once. Default 16. */
  concurrentCallsPerUser: number;
  /** Chat turns one user runs at once. Default 4. */
  concurrentTurnsPerUser: number;
  /** API requests per user per minute. Default 600. */
  requestsPerMinute: number;
  /**
   * Live MCP connections of the whole instance. Default 5000: the documented capacity (1,000 users ×
   * 3 servers) with two thirds to spare; at the ceiling the least recently used idle one is closed.
   */
  connectionsTotal: number;
  /** Sandboxed (stdio) server processes of the whole instance. Default 200. */
  sandboxesTotal: number;
  /** Explicit reconnects of one user to one server per minute. Default 20. */
  reconnectsPerMinute: number;
  /** Open `GET /api/events` streams of one user (one per browser tab). Default 20. */
  eventStreamsPerUser: number;
  /** Open `GET /api/events` streams of the whole instance (each holds a socket). Default 3000 (1,000 users, a few tabs each). */
  eventStreamsTotal: number;
}

/** The documented defaults. */
export const DEFAULT_QUOTAS: Quotas = {
  serversPerWorkspace: 100,
  connectionsPerUser: 50,
  concurrentCallsPerUser: 16,
  concurrentTurnsPerUser: 4,
  requestsPerMinute: 600,
  connectionsTotal: 5000,
  sandboxesTotal: 200,
  reconnectsPerMinute: 20,
  eventStreamsPerUser: 20,
  eventStreamsTotal: 3000,
};

/** The environment variable of each quota (named in every 429 message). */
export const QUOTA_ENV: Record<keyof Quotas, string> = {
  serversPerWorkspace: "SWITCHBOARD_QUOTA_SERVERS_PER_WORKSPACE",
  connectionsPerUser: "SWITCHBOARD_QUOTA_CONNECTIONS_PER_USER",
  concurrentCallsPerUser: "SWITCHBOARD_QUOTA_CONCURRENT_CALLS_PER_USER",
  concurrentTurnsPerUser: "SWITCHBOARD_QUOTA_CONCURRENT_TURNS_PER_USER",
  requestsPerMinute: "SWITCHBOARD_QUOTA_REQUESTS_PER_MINUTE",
  connectionsTotal: "SWITCHBOARD_QUOTA_CONNECTIONS_TOTAL",
  sandboxesTotal: "SWITCHBOARD_QUOTA_SANDBOXES_TOTAL",
  reconnectsPerMinute: "SWITCHBOARD_QUOTA_RECONNECTS_PER_MINUTE",
  eventStreamsPerUser: "SWITCHBOARD_QUOTA_EVENT_STREAMS_PER_USER",
  eventStreamsTotal: "SWITCHBOARD_QUOTA_EVENT_STREAMS_TOTAL",
};

/** Quotas from environment variables; unset or invalid values keep the default. */
export function quotasFromEnv(env: EnvBag = environment()): Quotas {
  const quotas = { ...DEFAULT_QUOTAS };
  for (const key of Object.keys(QUOTA_ENV) as (keyof Quotas)[]) {
    const raw = env[QUOTA_ENV[key]];
    const value = Number(raw);
    if (raw !== undefined && raw !== "" && Number.isFinite(value) && value > 0) quotas[key] = Math.floor(value);
  }
  return quotas;
}
