/** Trust settings per server: trusted flag, lethal-trifecta check, and when its tools were first pinned. */
import { eq } from "drizzle-orm";
import type { Db } from "../client";
import { bumpGeneration } from "../generation";
import { serverTrust } from "../schema";
import { gated } from "../transaction";
import { one } from "../exec";

/** A server's trust settings; the defaults when no row exists. */
export interface ServerTrustRecord {
  serverId: string;
  trusted: boolean;
  trifectaCheck: boolean;
  pinnedAt: Date | null;
}

const DEFAULTS = { trusted: false, trifectaCheck: true, pinnedAt: null };

function toRecord(serverId: string, row: typeof serverTrust.$inferSelect | undefined): ServerTrustRecord {
  return row
    ? { serverId, trusted: row.trusted, trifectaCheck: row.trifectaCheck, pinnedAt: row.pinnedAt ?? null }
    : { serverId, ...DEFAULTS };
}

/** The server's settings (untrusted, check on, not pinned when never stored). */
export async function getServerTrust(db: Db, serverId: string): Promise<ServerTrustRecord> {
  return gated(db, async () => toRecord(serverId, await one(db.select().from(serverTrust).where(eq(serverTrust.serverId, serverId)))));
}

/**
 * Change some settings; fields left out keep their value. One upsert that sets only the given
 * fields and returns the row: a read, then a write of the merged values, would let another
 * request's change of another field land in between and be overwritten.
 */
export async function updateServerTrust(
  db: Db,
  serverId: string,
  change: Partial<Pick<ServerTrustRecord, "trusted" | "trifectaCheck" | "pinnedAt">>,
  updatedBy: string | null,
): Promise<ServerTrustRecord> {
  return gated(db, async () => {
    const given = Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined)) as typeof change;
    const set = { ...given, updatedBy, updatedAt: new Date() };
    const row = await one(
      db
        .insert(serverTrust)
        .values({ serverId, ...DEFAULTS, ...set })
        .onConflictDoUpdate({ target: serverTrust.serverId, set })
        .returning(),
    );
    bumpGeneration();
    return toRecord(serverId, row);
  });
}
