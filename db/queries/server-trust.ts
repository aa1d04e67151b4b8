/** Trust settings per server: trusted flag, lethal-trifecta check, and when its tools were first pinned. */
import { eq } from "drizzle-orm";
import type { Db } from "../client";
import { bumpGeneration } from "../generation";
import { serverTrust } from "../schema";
import { gated } from "../transaction";
import { exec } from "../exec";

/** A server's trust settings; the defaults when no row exists. */
export interface ServerTrustRecord {
  serverId: string;
  trusted: boolean;
  trifectaCheck: boolean;
  pinnedAt: Date | null;
}

/** The server's settings (untrusted, check on, not pinned when never stored). */
export async function getServerTrust(db: Db, serverId: string): Promise<ServerTrustRecord> {
  return gated(db, async () => readTrust(db, serverId));
}

// Synchronous, so updateServerTrust reads and writes with no await between: another request's
// change cannot land in between and be overwritten by this one's stale read.
function readTrust(db: Db, serverId: string): ServerTrustRecord {
  const row = db.select().from(serverTrust).where(eq(serverTrust.serverId, serverId)).get();
  return row
    ? { serverId, trusted: row.trusted, trifectaCheck: row.trifectaCheck, pinnedAt: row.pinnedAt ?? null }
    : { serverId, trusted: false, trifectaCheck: true, pinnedAt: null };
}

/** Change some settings; fields left out keep their value. */
export async function updateServerTrust(
  db: Db,
  serverId: string,
  change: Partial<Pick<ServerTrustRecord, "trusted" | "trifectaCheck" | "pinnedAt">>,
  updatedBy: string | null,
): Promise<ServerTrustRecord> {
  return gated(db, async () => {
    const next = { ...readTrust(db, serverId), ...change };
    const values = {
      serverId,
      trusted: next.trusted,
      trifectaCheck: next.trifectaCheck,
      pinnedAt: next.pinnedAt,
      updatedBy,
      updatedAt: new Date(),
    };
    await exec(db.insert(serverTrust).values(values).onConflictDoUpdate({ target: serverTrust.serverId, set: values }));
    bumpGeneration();
    return next;
  });
}
