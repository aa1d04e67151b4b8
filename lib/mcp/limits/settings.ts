/**
 * The engine's limits on what one server may send, with their defaults and environment variables
 * (docs/limits.md lists each). Pure: the host reads the environment once and passes the result in.
 */

/** Caps applied to every connection; each field's default is in `DEFAULT_ENGINE_LIMITS`. */
export interface EngineLimits {
  /** Largest JSON-RPC message (HTTP body, one SSE event, one stdio line). Default 16 MiB. */
  maxMessageBytes: number;
  /** Deepest nesting of objects/arrays in one message. Default 64. */
  maxJsonDepth: number;
  /** Most object keys plus array elements in one message. Default 100,000. */
  maxJsonMembers: number;
  /** Notifications per second per connection (bursts of twice this pass). Default 100. */
  notificationsPerSecond: number;
  /** Elicitation + sampling requests per minute per connection. Default 10. */
  serverRequestsPerMinute: number;
  /** Elicitation + sampling requests of one connection waiting at once. Default 3. */
  maxPendingServerRequests: number;
  /** Tools per server. Default 1,000. */
  maxTools: number;
  /** Bytes of all pages of one list together. Default 32 MiB. */
  maxListBytes: number;
  /** Pages of one list. Default 50. */
  maxListPages: number;
  /** Characters of one tool description kept for the model. Default 4,000. */
  maxDescriptionChars: number;
  /** Stream (re)opens per connection, first one included. Default 10. */
  maxStreamOpens: number;
}

/** The documented defaults. */
export const DEFAULT_ENGINE_LIMITS: EngineLimits = {
  maxMessageBytes: 16 * 1024 * 1024,
  maxJsonDepth: 64,
  maxJsonMembers: 100_000,
  notificationsPerSecond: 100,
  serverRequestsPerMinute: 10,
  maxPendingServerRequests: 3,
  maxTools: 1000,
  maxListBytes: 32 * 1024 * 1024,
  maxListPages: 50,
  maxDescriptionChars: 4000,
  maxStreamOpens: 10,
};

/** The environment variable of each limit (named in every "over the cap" error). */
export const LIMIT_ENV: Record<keyof EngineLimits, string> = {
  maxMessageBytes: "SWITCHBOARD_MCP_MAX_MESSAGE_BYTES",
  maxJsonDepth: "SWITCHBOARD_MCP_MAX_JSON_DEPTH",
  maxJsonMembers: "SWITCHBOARD_MCP_MAX_JSON_MEMBERS",
  notificationsPerSecond: "SWITCHBOARD_MCP_NOTIFICATIONS_PER_SECOND",
  serverRequestsPerMinute: "SWITCHBOARD_MCP_SERVER_REQUESTS_PER_MINUTE",
  maxPendingServerRequests: "SWITCHBOARD_MCP_MAX_PENDING_SERVER_REQUESTS",
  maxTools: "SWITCHBOARD_MCP_MAX_TOOLS",
  maxListBytes: "SWITCHBOARD_MCP_MAX_LIST_BYTES",
  maxListPages: "SWITCHBOARD_MCP_MAX_LIST_PAGES",
  maxDescriptionChars: "SWITCHBOARD_MCP_MAX_DESCRIPTION_CHARS",
  maxStreamOpens: "SWITCHBOARD_MCP_MAX_STREAM_OPENS",
};

/** Limits from environment variables; unset or invalid values keep the default. */
export function engineLimitsFromEnv(env: Record<string, string | undefined>): EngineLimits {
  const limits = { ...DEFAULT_ENGINE_LIMITS };
  for (const key of Object.keys(LIMIT_ENV) as (keyof EngineLimits)[]) {
    const value = Number(env[LIMIT_ENV[key]]);
    if (env[LIMIT_ENV[key]] !== undefined && Number.isFinite(value) && value > 0) limits[key] = Math.floor(value);
  }
  return limits;
}

/** Limits with defaults for the fields not given. */
export function resolveEngineLimits(partial: Partial<EngineLimits> = {}): EngineLimits {
  return { ...DEFAULT_ENGINE_LIMITS, ...partial };
}

/** The sentence every over-a-cap error ends with: which variable raises it. */
export function raiseHint(key: keyof EngineLimits): string {
  return `raise ${LIMIT_ENV[key]} to allow more`;
}
