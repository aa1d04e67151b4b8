/**
 * Expiry of rows past any use (lib/runtime/row-expiry.ts runs it): sessions that ended or expired,
 * password-reset links that expired, leases whose time ran out, the authorization server's records past their expiry. Each delete is one statement, so a
 * row goes once whoever else deletes at the same time.
 */
import { lt, or } from "drizzle-orm";
import type { Db } from "../client";
import { exec } from "../exec";
import { leases, oauthServerRecords, passwordResets, sessions } from "../schema";
import { gated } from "../transaction";

/** What one round of expiry deleted. */
export interface ExpiredRows {
  sessions: number;
  passwordResets: number;
  leases: number;
  oauthServerRecords: number;
}

/**
 * Delete sessions ended or expired before `sessionsBefore`, password resets expired before
 * `resetsBefore` (used or not), leases expired before `leasesBefore` and the authorization server's
 * records expired before `oauthServerBefore`; returns how many of each went.
 */
export async function deleteExpiredRows(
  db: Db,
  cutoffs: { sessionsBefore: Date; resetsBefore: Date; leasesBefore: Date; oauthServerBefore: Date },
): Promise<ExpiredRows> {
  return gated(db, async () => ({
    sessions: await exec(
      db.delete(sessions).where(or(lt(sessions.expiresAt, cutoffs.sessionsBefore), lt(sessions.endedAt, cutoffs.sessionsBefore))),
    ),
    passwordResets: await exec(db.delete(passwordResets).where(lt(passwordResets.expiresAt, cutoffs.resetsBefore))),
    leases: await exec(db.delete(leases).where(lt(leases.expiresAt, cutoffs.leasesBefore))),
    oauthServerRecords: await exec(db.delete(oauthServerRecords).where(lt(oauthServerRecords.expiresAt, cutoffs.oauthServerBefore))),
  }));
}
