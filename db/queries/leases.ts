/**
 * Leases (db/tables-leases.ts): take a named lease for a while, renew it, give it back. Taking is one
 * statement (insert, or update a row whose time ran out or that the owner already holds), so two
 * processes asking at once cannot both get it, on either database.
 */
import { and, eq, lt, or } from "drizzle-orm";
import type { Db } from "../client";
import { all, exec } from "../exec";
import { leases } from "../schema";
import { gated } from "../transaction";

/**
 * Take (or renew) the lease `name` for `owner` until `ttlMs` from `now`: true when `owner` holds it
 * afterwards, false while another owner's lease runs.
 */
export async function takeLease(db: Db, name: string, owner: string, ttlMs: number, now = new Date()): Promise<boolean> {
  return gated(db, async () => {
    const expiresAt = new Date(now.getTime() + ttlMs);
    const taken = await all(
      db
        .insert(leases)
        .values({ name, owner, expiresAt })
        .onConflictDoUpdate({
          target: leases.name,
          set: { owner, expiresAt },
          setWhere: or(lt(leases.expiresAt, now), eq(leases.owner, owner)),
        })
        .returning({ owner: leases.owner }),
    );
    return taken.length === 1;
  });
}

/** Give the lease `name` back, if `owner` still holds it (a lease that ran out may be another's now). */
export async function releaseLease(db: Db, name: string, owner: string): Promise<void> {
  return gated(db, async () => {
    await exec(db.delete(leases).where(and(eq(leases.name, name), eq(leases.owner, owner))));
  });
}
