/**
 * The one module of lib/, app/ and db/ that touches `process.env` (tests/unit/lib/env-module.test.ts
 * keeps it so; docs/configuration.md documents every variable). Each read happens when its function
 * is called, never at import, so a test that changes a variable between cases sees the change; the
 * callers parse and default the raw values as before.
 */
import path from "node:path";

/** The environment as a bag of variables, for callers that take one (tests pass their own). */
export type EnvBag = Readonly<Record<string, string | undefined>>;

/**
 * The whole environment, for the parsers that read a family of variables by name (quotas, engine
 * and sandbox limits, the model's defaults, the public URL) and for a stdio child's filtered copy.
 */
export function environment(): NodeJS.ProcessEnv {
  return process.env;
}

/**
 * `SWITCHBOARD_SHUTDOWN_GRACE_SECONDS` (default 0, at most 120): how long a server that got SIGTERM
 * keeps serving, its readiness answering 503, before it stops taking requests (docs/deployment.md).
 */
export function shutdownGraceMs(): number {
  const seconds = Number(process.env.SWITCHBOARD_SHUTDOWN_GRACE_SECONDS);
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 120) * 1000 : 0;
}

/** Directory for the database, generated keys and sandbox homes (`SWITCHBOARD_DATA_DIR`, default `./data`). */
export function dataDir(): string {
  return path.resolve(/*turbopackIgnore: true*/ process.env.SWITCHBOARD_DATA_DIR || "./data");
}

/**
 * `DATABASE_URL`, raw: a `postgres://` URL runs the app (and the `switchboard db` commands) on
 * Postgres; unset, SQLite in the data directory (docs/database.md).
 */
export function databaseUrlSetting(): string | undefined {
  return process.env.DATABASE_URL?.trim() || undefined;
}

/** The Postgres pool settings, raw: `SWITCHBOARD_DB_POOL_SIZE`, `SWITCHBOARD_DB_STATEMENT_TIMEOUT_MS`. */
export function databasePoolSettings(): { poolSize?: string; statementTimeoutMs?: string } {
  return { poolSize: process.env.SWITCHBOARD_DB_POOL_SIZE, statementTimeoutMs: process.env.SWITCHBOARD_DB_STATEMENT_TIMEOUT_MS };
}

/** Whether self-registration is open (`SWITCHBOARD_REGISTRATION=closed` closes it). */
export function registrationOpen(): boolean {
  return (process.env.SWITCHBOARD_REGISTRATION ?? "open").toLowerCase() !== "closed";
}

/**
 * Outgoing mail (`SWITCHBOARD_SMTP_URL`, e.g. `smtps://user:pass@smtp.example.com:465`, and
 * `SWITCHBOARD_MAIL_FROM`), or null when no SMTP URL is set: links are then shown to the administrator.
 */
export function mailSetting(): { smtpUrl: string; from: string } | null {
  const smtpUrl = process.env.SWITCHBOARD_SMTP_URL?.trim();
  if (!smtpUrl) return null;
  return { smtpUrl, from: process.env.SWITCHBOARD_MAIL_FROM?.trim() || "Switchboard <switchboard@localhost>" };
}

/** `SWITCHBOARD_SECRET_KEY`: the instance key given by the administrator, if any. */
export function secretKeySetting(): string | undefined {
  return process.env.SWITCHBOARD_SECRET_KEY;
}

/** `NEXTAUTH_SECRET`: the session-cookie secret given by the administrator, if any. */
export function nextAuthSecretSetting(): string | undefined {
  return process.env.NEXTAUTH_SECRET;
}

/**
 * Set `AUTH_TRUST_HOST` so next-auth builds redirects from X-Forwarded-Host/-Proto, which proxy.ts
 * replaces on every request with the app's public origin (the client cannot choose them).
 */
export function trustForwardedHostForNextAuth(): void {
  process.env.AUTH_TRUST_HOST = "1";
}

/** `SWITCHBOARD_SESSION_MAX_AGE_HOURS`, raw. */
export function sessionMaxAgeHoursSetting(): string | undefined {
  return process.env.SWITCHBOARD_SESSION_MAX_AGE_HOURS;
}

/** `SWITCHBOARD_SESSION_IDLE_MINUTES`, raw. */
export function sessionIdleMinutesSetting(): string | undefined {
  return process.env.SWITCHBOARD_SESSION_IDLE_MINUTES;
}

/** `SWITCHBOARD_REGISTRATIONS_PER_ADDRESS`, raw. */
export function registrationsPerAddressSetting(): string | undefined {
  return process.env.SWITCHBOARD_REGISTRATIONS_PER_ADDRESS;
}

/** `SWITCHBOARD_TRUSTED_PROXIES`, raw (comma-separated addresses and CIDRs). */
export function trustedProxiesSetting(): string | undefined {
  return process.env.SWITCHBOARD_TRUSTED_PROXIES;
}

/** `SWITCHBOARD_MAX_BODY_BYTES`, raw. */
export function maxBodyBytesSetting(): string | undefined {
  return process.env.SWITCHBOARD_MAX_BODY_BYTES;
}

/** `SWITCHBOARD_ALLOWED_HOSTS`, raw (comma-separated hosts, addresses and CIDRs). */
export function allowedHostsSetting(): string | undefined {
  return process.env.SWITCHBOARD_ALLOWED_HOSTS;
}

/** `SWITCHBOARD_ALLOW_HTTP_LOOPBACK_OAUTH`, raw. */
export function allowHttpLoopbackOAuthSetting(): string | undefined {
  return process.env.SWITCHBOARD_ALLOW_HTTP_LOOPBACK_OAUTH;
}

/** Whether `SWITCHBOARD_LOG_LEVEL=debug` asks for the engine's debug lines. */
export function debugLogging(): boolean {
  return process.env.SWITCHBOARD_LOG_LEVEL === "debug";
}

/** The sandbox mode of stdio servers (`SWITCHBOARD_SANDBOX=off` is the administrator's override). */
export function sandboxMode(): "required" | "off" {
  return process.env.SWITCHBOARD_SANDBOX === "off" ? "off" : "required";
}

/** Whether the sandbox's system call filter is on (`SWITCHBOARD_SANDBOX_SECCOMP=off` turns it off). */
export function sandboxSeccomp(): boolean {
  return process.env.SWITCHBOARD_SANDBOX_SECCOMP !== "off";
}

/** `SWITCHBOARD_MCP_IDLE_MINUTES`, raw. */
export function mcpIdleMinutesSetting(): string | undefined {
  return process.env.SWITCHBOARD_MCP_IDLE_MINUTES;
}

/** `SWITCHBOARD_MCP_TURN_WAIT_SECONDS`, raw. */
export function turnWaitSecondsSetting(): string | undefined {
  return process.env.SWITCHBOARD_MCP_TURN_WAIT_SECONDS;
}

/** `SWITCHBOARD_MCP_PING_INTERVAL_MS`, raw: idle time before a health ping of an HTTP connection (`0` = no pings). */
export function mcpPingIntervalSetting(): string | undefined {
  return process.env.SWITCHBOARD_MCP_PING_INTERVAL_MS;
}

/** The instance's default model (`SWITCHBOARD_LLM_PROVIDER`, `SWITCHBOARD_LLM_MODEL`), unset as null. */
export function instanceModelSetting(): { provider: string | null; model: string | null } {
  return { provider: process.env.SWITCHBOARD_LLM_PROVIDER || null, model: process.env.SWITCHBOARD_LLM_MODEL || null };
}

/** What the MCP conformance suite tells its client (`MCP_CONFORMANCE_SCENARIO`, `MCP_CONFORMANCE_CONTEXT`). */
export function conformanceSetting(): { scenario: string; context: string } {
  return { scenario: process.env.MCP_CONFORMANCE_SCENARIO ?? "", context: process.env.MCP_CONFORMANCE_CONTEXT ?? "{}" };
}

/** The program search path (`PATH`), for finding bubblewrap. */
export function searchPath(): string {
  return process.env.PATH ?? "";
}

/** Whether this is Next's development server (`NODE_ENV=development`, inlined by Next at build). */
export function isDevelopment(): boolean {
  return process.env.NODE_ENV === "development";
}

/** The app's own version, reported by /api/health. */
export const APP_VERSION = "0.1.0";

/**
 * `REDIS_URL`, raw: set, the app runs in cluster mode (several replicas on one Postgres share
 * quotas, throttles, live events and messages through this Redis; docs/deployment.md#cluster-mode).
 */
export function redisUrlSetting(): string | undefined {
  return process.env.REDIS_URL?.trim() || undefined;
}

/** `SWITCHBOARD_REPLICA_ID`, raw: this process's replica id (scripts/server.mjs sets a random one when unset). */
export function replicaIdSetting(): string | undefined {
  return process.env.SWITCHBOARD_REPLICA_ID?.trim() || undefined;
}

/**
 * `SWITCHBOARD_INTERNAL_URL`, raw: where the other replicas reach this one on the internal hop (a call
 * to a stdio server whose sandbox runs here is forwarded to it). Unset, lib/runtime/internal-hop.ts
 * derives it from `HOSTNAME` and `PORT`.
 */
export function internalUrlSetting(): string | undefined {
  return process.env.SWITCHBOARD_INTERNAL_URL?.trim() || undefined;
}

/** `HOSTNAME` and `PORT` as the app's HTTP server listens on them (scripts/server.mjs), raw. */
export function listenSetting(): { hostname: string | undefined; port: string | undefined } {
  return { hostname: process.env.HOSTNAME?.trim() || undefined, port: process.env.PORT?.trim() || undefined };
}
