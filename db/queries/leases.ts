/**
 * Leases (db/tables-leases.ts): take a named lease for a while, renew it, give it back. Taking is one
 * statement (insert, or update a row whose time ran out or that the owner already holds), so two
 * processes asking at once cannot both get it, on either database.
 */
import { and, eq, gte, inArray, lt, or } from "drizzle-orm";
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

/**
 * Renew, in one statement, those of `names` that `owner` still holds and whose time has not run out,
 * until `ttlMs` from `now`: answers the names renewed (a name left out was lost: it ran out, and
 * another owner may hold it now).
 */
export async function renewLeases(db: Db, names: string[], owner: string, ttlMs: number, now = new Date()): Promise<string[]> {
  if (names.length === 0) return [];
  return gated(db, async () => {
    const renewed = await all(
      db
        .update(leases)
        .set({ expiresAt: new Date(now.getTime() + ttlMs) })
        .where(and(inArray(leases.name, names), eq(leases.owner, owner), gte(leases.expiresAt, now)))
        .returning({ name: leases.name }),
    );
    return renewed.map((row) => row.name);
  });
}

/** Who holds the lease `name` and until when, or null when nobody does (it may have run out). */
export async function leaseHolder(db: Db, name: string): Promise<{ owner: string; expiresAt: Date } | null> {
  return gated(db, async () => {
    const [row] = await all(db.select({ owner: leases.owner, expiresAt: leases.expiresAt }).from(leases).where(eq(leases.name, name)));
    return row ?? null;
  });
}

/** Give the lease `name` back, if `owner` still holds it (a lease that ran out may be another's now). */
export async function releaseLease(db: Db, name: string, owner: string): Promise<void> {
  return gated(db, async () => {
    await exec(db.delete(leases).where(and(eq(leases.name, name), eq(leases.owner, owner))));
  });
}
