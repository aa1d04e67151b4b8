/**
 * One pool per process (lib/singleton.ts) so Next's dev hot reload does not orphan connections,
 * with SIGTERM/SIGINT handlers (installed once) that close every connection before exiting.
 */
import { clearSingleton, singleton } from "../singleton";
import { McpPool } from "./pool";
import type { PoolOptions } from "./types";

const POOL_SLOT = "mcp.pool";

/** The process-wide pool; `options` apply only when this call creates it. */
export function getPool(options?: PoolOptions): McpPool {
  const pool = singleton(POOL_SLOT, () => new McpPool(options));
  singleton("mcp.signalHandlers", installSignalHandlers);
  return pool;
}

/** Close and forget the process-wide pool (tests, CLI exit). */
export async function closeGlobalPool(): Promise<void> {
  await clearSingleton<McpPool>(POOL_SLOT)?.closeAll();
}

function installSignalHandlers(): true {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      // No child may outlive the app (docs/architecture.md#connection-lifecycle); then exit as the signal would have.
      const exitCode = 128 + (signal === "SIGINT" ? 2 : 15);
      const force = setTimeout(() => process.exit(exitCode), 10_000);
      force.unref();
      // process.exit runs as soon as closing settles, so a failed close cannot become an unhandled rejection.
      void closeGlobalPool().finally(() => process.exit(exitCode));
    });
  }
  return true;
}
