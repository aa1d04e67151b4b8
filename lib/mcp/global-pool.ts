/**
 * One pool per process, kept on globalThis so Next's dev hot reload does not orphan connections.
 * Closing it on process signals is the host's business (lib/host/shutdown.ts), not the engine's.
 */
import { McpPool } from "./pool";
import type { PoolOptions } from "./types";

const POOL_KEY = Symbol.for("switchboard.mcp.pool");
type GlobalSlots = { [POOL_KEY]?: McpPool };

/** The process-wide pool; `options` apply only when this call creates it. */
export function getPool(options?: PoolOptions): McpPool {
  const slots = globalThis as GlobalSlots;
  slots[POOL_KEY] ??= new McpPool(options);
  return slots[POOL_KEY];
}

/** Close and forget the process-wide pool (tests, CLI exit). */
export async function closeGlobalPool(): Promise<void> {
  const slots = globalThis as GlobalSlots;
  const pool = slots[POOL_KEY];
  slots[POOL_KEY] = undefined;
  await pool?.closeAll();
}
