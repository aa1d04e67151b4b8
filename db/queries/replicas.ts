/**
 * The replica registry (db/tables-leases.ts `replicas`): each app server adds its row when it starts,
 * renews its heartbeat while it runs and deletes the row when it stops. `joinReplicas` checks the
 * others and adds this one in one keyed transaction, so two servers starting at once cannot both
 * miss each other.
 */
import { and, eq, gt, lt, ne } from "drizzle-orm";
import type { Db } from "../client";
import { all, exec } from "../exec";
import { replicas } from "../schema";
import { gated, withTransaction } from "../transaction";

/** A row of the registry. */
export type ReplicaRow = typeof replicas.$inferSelect;

/**
 * Under one lock: the other replicas whose heartbeat is newer than `liveSince`, handed to `admit`;
 * when `admit` returns true, `self` is added (or replaced). Rows dead for over an hour are removed.
 */
export async function joinReplicas(
  db: Db,
  self: ReplicaRow,
  liveSince: Date,
  admit: (others: ReplicaRow[]) => boolean | Promise<boolean>,
): Promise<boolean> {
  return withTransaction(
    db,
    async (tx) => {
      await exec(tx.delete(replicas).where(lt(replicas.heartbeatAt, new Date(liveSince.getTime() - 3_600_000))));
      const others = await all(
        tx
          .select()
          .from(replicas)
          .where(and(ne(replicas.id, self.id), gt(replicas.heartbeatAt, liveSince))),
      );
      if (!(await admit(others))) return false;
      await exec(
        tx
          .insert(replicas)
          .values(self)
          .onConflictDoUpdate({ target: replicas.id, set: { ...self } }),
      );
      return true;
    },
    { serializeOn: "replica-registry" },
  );
}

/** Renew `id`'s heartbeat; false when its row is gone (removed as dead by another replica). */
export async function renewReplica(db: Db, id: string, at: Date): Promise<boolean> {
  return gated(db, async () => (await exec(db.update(replicas).set({ heartbeatAt: at }).where(eq(replicas.id, id)))) > 0);
}

/** Remove `id`'s row (it stops). */
export async function leaveReplicas(db: Db, id: string): Promise<void> {
  return gated(db, async () => {
    await exec(db.delete(replicas).where(eq(replicas.id, id)));
  });
}

/** Replica `id`'s row, or null when it has none (it stopped, or was removed as dead). */
export async function replicaById(db: Db, id: string): Promise<ReplicaRow | null> {
  return gated(db, async () => {
    const [row] = await all(db.select().from(replicas).where(eq(replicas.id, id)));
    return row ?? null;
  });
}

/** Every row, live or not, newest heartbeat first (the admin area shows them). */
export async function listReplicas(db: Db): Promise<ReplicaRow[]> {
  return gated(db, async () => {
    const rows = await all(db.select().from(replicas));
    return rows.sort((a, b) => b.heartbeatAt.getTime() - a.heartbeatAt.getTime());
  });
}
