/**
 * The latest change to one person's access to one workspace, read from the audit log: who removed
 * them, or changed their role, and when. Read only when a request is refused, to say why.
 */
import { and, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "../client";
import { auditLog, users } from "../schema";
import { flushAudit } from "./audit";
import { gated } from "../transaction";
import { one } from "../exec";

/** The audit actions that change a person's access to a workspace. */
export const ACCESS_CHANGE_ACTIONS = ["member.remove", "member.leave", "member.role"] as const;

/** One access change: the action, who made it (null when their account is gone), when, and its detail. */
export interface AccessChange {
  action: (typeof ACCESS_CHANGE_ACTIONS)[number];
  actorId: string | null;
  actorName: string | null;
  detail: unknown;
  createdAt: Date;
}

/** The newest access change of `userId` in `workspaceId`, or null when the log has none. */
export async function latestAccessChange(db: Db, ref: { workspaceId: string; userId: string }): Promise<AccessChange | null> {
  return gated(db, async () => {
    await flushAudit(db);
    const row = await one(
      db
        .select({
          action: auditLog.action,
          actorId: auditLog.actorId,
          actorName: users.name,
          detail: auditLog.detail,
          createdAt: auditLog.createdAt,
        })
        .from(auditLog)
        .leftJoin(users, eq(users.id, auditLog.actorId))
        .where(
          and(
            eq(auditLog.workspaceId, ref.workspaceId),
            eq(auditLog.target, ref.userId),
            inArray(auditLog.action, [...ACCESS_CHANGE_ACTIONS]),
          ),
        )
        .orderBy(desc(auditLog.id))
        .limit(1),
    );
    return row ? { ...row, action: row.action as AccessChange["action"] } : null;
  });
}
