/**
 * Leases (docs/architecture.md#leases) and the replica registry. A lease is a named piece of work one
 * process at a time may do, held by an owner until it is released or its time runs out. Rows of both
 * are short-lived; a process that dies holding a lease loses it when `expires_at` passes. Merged into
 * db/tables.ts like the other groups.
 */
import type { ColumnKit } from "./columns/sqlite";

/** The lease and replica tables over the column kit `k`. */
export function defineLeaseTables(k: ColumnKit) {
  /** One lease: its name (`oauth-refresh:<user>:<server>`, `usage-retention`, `row-expiry`, `sandbox-cgroup-reaper:<host>`), who holds it, until when. */
  const leases = k.table("leases", {
    name: k.text("name").primaryKey(),
    owner: k.text("owner").notNull(),
    expiresAt: k.timestamp("expires_at").notNull(),
  });
  /**
   * The app servers running on this database (docs/deployment.md#cluster-mode): each renews its
   * heartbeat while it runs and deletes its row when it stops. A row whose heartbeat is old belongs
   * to a process that died; the start of another replica reads these to refuse a mixed deployment.
   */
  const replicas = k.table("replicas", {
    id: k.text("id").primaryKey(),
    host: k.text("host").notNull(),
    pid: k.integer("pid").notNull(),
    /** The package version and Next build id: every replica of an instance runs the same build. */
    version: k.text("version").notNull(),
    /** Whether it runs in cluster mode (`REDIS_URL` set). */
    clustered: k.boolean("clustered").notNull(),
    startedAt: k.timestamp("started_at").notNull(),
    heartbeatAt: k.timestamp("heartbeat_at").notNull(),
    /**
     * Where the other replicas reach this one on the internal hop (`SWITCHBOARD_INTERNAL_URL`): a call to
     * a stdio server whose sandbox runs here is forwarded to it (docs/deployment.md#cluster-mode).
     */
    internalUrl: k.text("internal_url"),
  });
  return { leases, replicas };
}
