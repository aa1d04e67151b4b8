/** The audit log: who did what to which target. */
import { desc } from "drizzle-orm";
import type { Db } from "../client";
import { auditLog } from "../schema";

/** Record one audited action. `detail` must already be free of secrets. */
export function recordAudit(
  db: Db,
  entry: { actorId: string | null; workspaceId?: string | null; action: string; target?: string | null; detail?: unknown },
): void {
  db.insert(auditLog)
    .values({
      actorId: entry.actorId,
      workspaceId: entry.workspaceId ?? null,
      action: entry.action,
      target: entry.target ?? null,
      detail: entry.detail ?? null,
    })
    .run();
}

/** The most recent audit entries, newest first. */
export function listRecentAudit(db: Db, limit = 100) {
  return db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(limit).all();
}
