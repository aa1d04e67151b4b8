/**
 * One pool per process (lib/singleton.ts) so Next's dev hot reload does not orphan connections.
 * Closing it on process signals is the host's business (lib/shutdown.ts), not the engine's.
 */
import { clearSingleton, peekSingleton, singleton } from "../singleton";
import { McpPool } from "./pool";
import type { PoolOptions } from "./types";

const POOL_SLOT = "mcp.pool";

/** The process-wide pool; `options` apply only when this call creates it. */
export function getPool(options?: PoolOptions): McpPool {
  return singleton(POOL_SLOT, () => new McpPool(options));
}

/** The process-wide pool if one was made, without making one (an order about connections needs none). */
export function existingPool(): McpPool | undefined {
  return peekSingleton<McpPool>(POOL_SLOT);
}

/** Close and forget the process-wide pool (tests, CLI exit). */
export async function closeGlobalPool(): Promise<void> {
  await clearSingleton<McpPool>(POOL_SLOT)?.closeAll();
}
