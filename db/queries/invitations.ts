/** Invitations into a workspace; stored by the SHA-256 of their token, never the token itself. */
import { and, desc, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "../client";
import { newId } from "../ids";
import { invitations, users } from "../schema";
import type { WorkspaceRole } from "../../lib/domain/workspace";
import { gated } from "../transaction";
import { all, exec, one } from "../exec";

/** A stored invitation. */
export type InvitationRecord = typeof invitations.$inferSelect;

/** Store a new invitation. */
export async function insertInvitation(
  db: Db,
  input: { workspaceId: string | null; email: string; role: WorkspaceRole; tokenHash: string; invitedBy: string; expiresAt: Date },
): Promise<InvitationRecord> {
  return gated(db, async () => {
    return (await one(
      db
        .insert(invitations)
        .values({ id: newId(), ...input })
        .returning(),
    ))!;
  });
}

/** The invitation with this token hash, or null. */
export async function getInvitationByTokenHash(db: Db, tokenHash: string): Promise<InvitationRecord | null> {
  return gated(db, async () => {
    return (await one(db.select().from(invitations).where(eq(invitations.tokenHash, tokenHash)))) ?? null;
  });
}

/** Pending invitations of a workspace (not accepted, not revoked, not expired), newest first, with the inviter's name. */
export async function listPendingInvitations(
  db: Db,
  workspaceId: string,
  now: Date,
): Promise<Array<InvitationRecord & { inviterName: string | null }>> {
  return gated(db, async () => {
    return (
      await all(
        db
          .select({ invitation: invitations, inviterName: users.name })
          .from(invitations)
          .leftJoin(users, eq(users.id, invitations.invitedBy))
          .where(
            and(
              eq(invitations.workspaceId, workspaceId),
              isNull(invitations.acceptedAt),
              isNull(invitations.revokedAt),
              gt(invitations.expiresAt, now),
            ),
          )
          .orderBy(desc(invitations.createdAt)),
      )
    ).map((row) => ({ ...row.invitation, inviterName: row.inviterName }));
  });
}

/**
 * Revoke every pending invitation `invitedBy` created in the workspace (they were removed or
 * demoted: the authority behind those links ended with the role). Returns their ids.
 */
export async function revokeInvitationsBy(db: Db, ref: { workspaceId: string; invitedBy: string }, now: Date): Promise<string[]> {
  return gated(db, async () => {
    return (
      await all(
        db
          .update(invitations)
          .set({ revokedAt: now })
          .where(
            and(
              eq(invitations.workspaceId, ref.workspaceId),
              eq(invitations.invitedBy, ref.invitedBy),
              isNull(invitations.acceptedAt),
              isNull(invitations.revokedAt),
            ),
          )
          .returning({ id: invitations.id }),
      )
    ).map((row) => row.id);
  });
}

/** Revoke a pending invitation of the workspace; false when there is none to revoke. */
export async function revokeInvitation(db: Db, ref: { id: string; workspaceId: string }, now: Date): Promise<boolean> {
  return gated(db, async () => {
    return (
      (await exec(
        db
          .update(invitations)
          .set({ revokedAt: now })
          .where(
            and(
              eq(invitations.id, ref.id),
              eq(invitations.workspaceId, ref.workspaceId),
              isNull(invitations.acceptedAt),
              isNull(invitations.revokedAt),
            ),
          ),
      )) > 0
    );
  });
}

/**
 * Mark an invitation used, only if it still is pending: the conditional update is what makes a
 * link single-use when two accepts race.
 */
export async function markInvitationAccepted(db: Db, ref: { id: string; userId: string }, now: Date): Promise<boolean> {
  return gated(db, async () => {
    return (
      (await exec(
        db
          .update(invitations)
          .set({ acceptedAt: now, acceptedBy: ref.userId })
          .where(
            and(eq(invitations.id, ref.id), isNull(invitations.acceptedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, now)),
          ),
      )) > 0
    );
  });
}
