/**
 * The app's Postgres pool from its settings: `DATABASE_URL` (with libpq's `sslmode` and `sslrootcert`
 * in its query), `SWITCHBOARD_DB_POOL_SIZE` and `SWITCHBOARD_DB_STATEMENT_TIMEOUT_MS`
 * (docs/configuration.md). A setting that cannot work is one DatabaseOpsError line at start.
 */
import fs from "node:fs";
import type { ConnectionOptions } from "node:tls";
import type pg from "pg";
import { DatabaseOpsError } from "./ops/errors";

/** Connections the pool opens at most, unless SWITCHBOARD_DB_POOL_SIZE says otherwise. */
export const DEFAULT_POOL_SIZE = 10;
/** A statement running longer than this is cancelled by the server (0 = no limit). */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000;
/** How long opening one connection may take before it counts as unreachable. */
export const CONNECT_TIMEOUT_MS = 10_000;

/** The raw settings (lib/env.ts `databasePoolSettings`). */
export interface PoolSettings {
  poolSize?: string;
  statementTimeoutMs?: string;
}

// The TLS parameters libpq reads from a URL; node-postgres would read them too (with other meanings:
// its `require` verifies the certificate), so they are taken out and applied here.
const TLS_PARAMS = ["sslmode", "sslrootcert", "sslcert", "sslkey"];
const SSL_MODES = ["disable", "require", "verify-ca", "verify-full"];

function whole(raw: string | undefined, name: string, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw.trim());
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new DatabaseOpsError(`${name} must be a whole number from ${min} to ${max} (got ${JSON.stringify(raw)})`);
  }
  return value;
}

/**
 * The TLS options of libpq's `sslmode`: absent or `disable`, none; `require`, encrypted without
 * checking the certificate (as libpq, unless `sslrootcert` is given: then as `verify-ca`);
 * `verify-ca`, the certificate must chain to `sslrootcert` (or the system's CAs); `verify-full`,
 * and name the host. `prefer`/`allow` (try both) are refused: a pool must know which it gets.
 */
export function tlsOptions(params: URLSearchParams, readFile: (file: string) => Buffer = fs.readFileSync): false | ConnectionOptions {
  const mode = (params.get("sslmode") ?? "disable").toLowerCase();
  if (!SSL_MODES.includes(mode)) {
    throw new DatabaseOpsError(`DATABASE_URL sslmode=${mode} is not supported: use disable, require, verify-ca or verify-full`);
  }
  if (mode === "disable") return false;
  const file = params.get("sslrootcert");
  let ca: Buffer | undefined;
  if (file) {
    try {
      ca = readFile(file);
    } catch (error) {
      throw new DatabaseOpsError(`DATABASE_URL sslrootcert ${file} cannot be read: ${(error as Error).message.split("\n")[0]}`);
    }
  }
  const effective = mode === "require" && ca ? "verify-ca" : mode;
  if (effective === "require") return { rejectUnauthorized: false };
  const options: ConnectionOptions = { rejectUnauthorized: true, ...(ca ? { ca } : {}) };
  // verify-ca: the chain is checked, the host name is not (libpq's meaning).
  if (effective === "verify-ca") options.checkServerIdentity = () => undefined;
  return options;
}

/** The node-postgres pool configuration for `url` and the settings. */
export function postgresPoolConfig(url: string, settings: PoolSettings, readFile?: (file: string) => Buffer): pg.PoolConfig {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new DatabaseOpsError("DATABASE_URL is not a valid URL (postgres://user:password@host:5432/database)");
  }
  const ssl = tlsOptions(parsed.searchParams, readFile);
  for (const name of TLS_PARAMS) parsed.searchParams.delete(name);
  const statementTimeout = whole(
    settings.statementTimeoutMs,
    "SWITCHBOARD_DB_STATEMENT_TIMEOUT_MS",
    DEFAULT_STATEMENT_TIMEOUT_MS,
    0,
    86_400_000,
  );
  return {
    connectionString: parsed.toString(),
    ssl,
    max: whole(settings.poolSize, "SWITCHBOARD_DB_POOL_SIZE", DEFAULT_POOL_SIZE, 1, 1000),
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    ...(statementTimeout > 0 ? { statement_timeout: statementTimeout } : {}),
    // Idle connections do not keep a command or a test process alive.
    allowExitOnIdle: true,
  };
}
