/**
 * Expiry of old rows (db/queries/row-expiry.ts): sessions ended or expired 30 days ago, password-reset
 * links expired 30 days ago, leases run out an hour ago, the authorization server's records (codes,
 * tokens, grants, interactions) as soon as they expire: oidc-provider treats an expired one as absent. Until then a late request still hears why
 * it is refused ("expired", "already used") rather than "not found"; after, nothing reads them. A
 * round runs a minute after start and then every six hours. With several replicas on one database,
 * one of them expires per round: the round takes the `row-expiry` lease for half the period and
 * keeps it, so the others' rounds in that time skip (docs/architecture.md#leases). Two rounds at
 * once would delete each row once all the same, but would scan the same tables twice and make the
 * second wait on the first's row locks for nothing.
 */
import type { Db } from "../../db/client";
import { getDb } from "../../db/client";
import { takeLease } from "../../db/queries/leases";
import { deleteExpiredRows, type ExpiredRows } from "../../db/queries/row-expiry";
import { replicaId } from "../cluster/replicas";
import { redact } from "../redact";
import { singleton } from "../singleton";
import { describeDatabaseFailure } from "../../db/unavailable";

/** How often a replica starts a round. */
export const ROW_EXPIRY_EVERY_MS = 6 * 3_600_000;
/** The lease a round holds: not given back, so the other replicas' rounds in the next half period skip. */
export const ROW_EXPIRY_LEASE = "row-expiry";
/** How long a round's lease lasts: far longer than a round takes (three deletes). */
export const ROW_EXPIRY_LEASE_MS = ROW_EXPIRY_EVERY_MS / 2;
/** How long an ended or expired session and an expired password reset are kept. */
export const KEEP_EXPIRED_MS = 30 * 86_400_000;
/** How long a lease that ran out is kept (a dead pod's host lease, a refresh whose process died). */
export const KEEP_LAPSED_LEASE_MS = 3_600_000;

/**
 * One round of expiry as of `now`, unless another replica ran one within the last half period (it
 * holds the lease): then null. `owner` is the replica asking.
 */
export async function expireRowsUnderLease(db: Db, owner: string = replicaId(), now: Date = new Date()): Promise<ExpiredRows | null> {
  if (!(await takeLease(db, ROW_EXPIRY_LEASE, owner, ROW_EXPIRY_LEASE_MS, now))) return null;
  const kept = new Date(now.getTime() - KEEP_EXPIRED_MS);
  return deleteExpiredRows(db, {
    sessionsBefore: kept,
    resetsBefore: kept,
    leasesBefore: new Date(now.getTime() - KEEP_LAPSED_LEASE_MS),
    oauthServerBefore: now,
  });
}

/** Start this replica's rounds (once per process; the timers never keep it alive). */
export function scheduleRowExpiry(): void {
  singleton("runtime.rowExpiry", () => {
    const run = async () => {
      try {
        await expireRowsUnderLease(getDb());
      } catch (error) {
        // The database is away or closing: the next round tries again.
        console.warn("[switchboard] expiry of old rows did not run:", redact(describeDatabaseFailure(error)));
      }
    };
    setTimeout(run, 60_000).unref();
    const timer = setInterval(run, ROW_EXPIRY_EVERY_MS);
    timer.unref();
    return timer;
  });
}
