/**
 * One pool per process, kept on globalThis so Next's dev hot reload does not orphan connections,
 * with SIGTERM/SIGINT handlers (installed once) that close every connection before exiting.
 */
import { McpPool } from "./pool";
import type { PoolOptions } from "./types";

const POOL_KEY = Symbol.for("switchboard.mcp.pool");
const HANDLERS_KEY = Symbol.for("switchboard.mcp.signalHandlers");
type GlobalSlots = { [POOL_KEY]?: McpPool; [HANDLERS_KEY]?: boolean };

/** The process-wide pool; `options` apply only when this call creates it. */
export function getPool(options?: PoolOptions): McpPool {
  const slots = globalThis as GlobalSlots;
  slots[POOL_KEY] ??= new McpPool(options);
  installSignalHandlers(slots);
  return slots[POOL_KEY];
}

/** Close and forget the process-wide pool (tests, CLI exit). */
export async function closeGlobalPool(): Promise<void> {
  const slots = globalThis as GlobalSlots;
  const pool = slots[POOL_KEY];
  slots[POOL_KEY] = undefined;
  await pool?.closeAll();
}

function installSignalHandlers(slots: GlobalSlots): void {
  if (slots[HANDLERS_KEY]) return;
  slots[HANDLERS_KEY] = true;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      // No child may outlive the app (REFERENCE §3); then exit as the signal would have.
      const exitCode = 128 + (signal === "SIGINT" ? 2 : 15);
      const force = setTimeout(() => process.exit(exitCode), 10_000);
      force.unref();
      closeGlobalPool().finally(() => process.exit(exitCode));
    });
  }
}
