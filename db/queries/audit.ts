/** The audit log: who did what to which target. */
import { and, desc, eq, lt, type SQL } from "drizzle-orm";
import type { Db } from "../client";
import { auditLog, users } from "../schema";

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

/** Filters of `listAudit`; every field is optional. */
export interface AuditFilter {
  actorId?: string;
  workspaceId?: string;
  action?: string;
  /** Entries older than this id (the previous page's `nextBefore`). */
  before?: number;
  /** Page size, default 50, at most 200. */
  limit?: number;
}

/** One page of audit entries, newest first, with the actor's email; `nextBefore` continues it. */
export function listAudit(db: Db, filter: AuditFilter) {
  const limit = Math.min(Math.max(filter.limit ?? 50, 1), 200);
  const where: SQL[] = [];
  if (filter.actorId) where.push(eq(auditLog.actorId, filter.actorId));
  if (filter.workspaceId) where.push(eq(auditLog.workspaceId, filter.workspaceId));
  if (filter.action) where.push(eq(auditLog.action, filter.action));
  if (filter.before) where.push(lt(auditLog.id, filter.before));
  const rows = db
    .select({
      id: auditLog.id,
      actorId: auditLog.actorId,
      actorEmail: users.email,
      workspaceId: auditLog.workspaceId,
      action: auditLog.action,
      target: auditLog.target,
      detail: auditLog.detail,
      createdAt: auditLog.createdAt,
    })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorId))
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(auditLog.id))
    .limit(limit + 1)
    .all();
  const page = rows.slice(0, limit);
  return { entries: page, nextBefore: rows.length > limit ? page[page.length - 1].id : null };
}
