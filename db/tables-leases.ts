/**
 * Leases (docs/architecture.md#leases): a named piece of work one process at a time may do, held by
 * an owner until it is released or its time runs out. Rows are short-lived; a process that dies
 * holding one loses it when `expires_at` passes. Merged into db/tables.ts like the other groups.
 */
import type { ColumnKit } from "./columns/sqlite";

/** The lease table over the column kit `k`. */
export function defineLeaseTables(k: ColumnKit) {
  /** One lease: its name (`oauth-refresh:<user>:<server>`, `usage-retention`), who holds it, until when. */
  const leases = k.table("leases", {
    name: k.text("name").primaryKey(),
    owner: k.text("owner").notNull(),
    expiresAt: k.timestamp("expires_at").notNull(),
  });
  return { leases };
}
