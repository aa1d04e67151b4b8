/**
 * The audit log as people read it: entries with the actor's and the target's names and emails
 * instead of bare ids, the values each filter offers, and the same rows as CSV. The caller decides
 * the scope (one workspace for its owners and admins, everything for instance administrators).
 */
import { z } from "zod";
import type { Db } from "../../db/client";
import { type AuditFilter, type AuditSubject, auditFacets, auditSubjects, listAudit } from "../../db/queries/audit";

/** Query of the audit log routes; `facets=1` adds the values the filters offer. */
export const auditQuerySchema = z.object({
  user: z.string().max(200).optional(),
  workspace: z.string().max(200).optional(),
  action: z.string().max(100).optional(),
  target: z.string().max(200).optional(),
  before: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
  facets: z.enum(["0", "1"]).optional(),
});

/** Which entries a caller may read: `workspaceId` pins them to one workspace. */
export interface AuditScope {
  workspaceId?: string;
}

/** At most this many rows go into one CSV export (newest first). */
export const AUDIT_CSV_MAX_ROWS = 10_000;

function filterOf(query: z.infer<typeof auditQuerySchema>, scope: AuditScope): AuditFilter {
  return {
    actorId: query.user || undefined,
    workspaceId: scope.workspaceId ?? (query.workspace || undefined),
    action: query.action || undefined,
    target: query.target || undefined,
    before: query.before,
    limit: query.limit,
  };
}

function subjectView(subject: AuditSubject | undefined) {
  return subject ? { kind: subject.kind, name: subject.name, email: subject.email ?? null } : null;
}

/** One page of the log, newest first, each entry with readable actor, target and workspace. */
export async function auditPage(db: Db, query: z.infer<typeof auditQuerySchema>, scope: AuditScope = {}) {
  const page = await listAudit(db, filterOf(query, scope));
  const names = await auditSubjects(
    db,
    page.entries.flatMap((e) => [e.target ?? "", e.workspaceId ?? ""]),
  );
  const entries = page.entries.map((e) => ({
    ...e,
    createdAt: e.createdAt.toISOString(),
    targetSubject: subjectView(names.get(e.target ?? "")),
    workspaceName: names.get(e.workspaceId ?? "")?.name ?? null,
  }));
  return { entries, nextBefore: page.nextBefore, ...(query.facets === "1" ? { facets: await facetsView(db, scope) } : {}) };
}

/** The filters' choices, each target and workspace with its name where it still exists. */
async function facetsView(db: Db, scope: AuditScope) {
  const facets = await auditFacets(db, scope);
  const names = await auditSubjects(db, [...facets.targets, ...facets.workspaceIds]);
  return {
    actors: facets.actors,
    actions: facets.actions,
    // By what a person reads (the name, else the raw id), not by id.
    targets: facets.targets
      .map((id) => ({ id, subject: subjectView(names.get(id)) }))
      .sort((a, b) => (a.subject?.name ?? a.id).localeCompare(b.subject?.name ?? b.id)),
    workspaces: facets.workspaceIds.map((id) => ({ id, name: names.get(id)?.name ?? null })),
  };
}

// A cell a spreadsheet would run as a formula starts with one of these; a leading ' keeps it text
// (OWASP "CSV injection").
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV field: formula-safe, quoted when it holds a comma, quote or line break (RFC 4180). */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The filtered log as CSV (header row first, newest entry next), at most AUDIT_CSV_MAX_ROWS rows. */
export async function auditCsv(db: Db, query: z.infer<typeof auditQuerySchema>, scope: AuditScope = {}): Promise<string> {
  const header = ["time", "actor_name", "actor_email", "action", "target", "target_name", "target_email", "workspace", "detail"];
  const lines = [header.join(",")];
  let before = query.before;
  while (lines.length <= AUDIT_CSV_MAX_ROWS) {
    const page = await auditPage(db, { ...query, before, limit: 200, facets: undefined }, scope);
    for (const e of page.entries.slice(0, AUDIT_CSV_MAX_ROWS + 1 - lines.length)) {
      lines.push(
        [
          e.createdAt,
          e.actorName,
          e.actorEmail,
          e.action,
          e.target,
          e.targetSubject?.name,
          e.targetSubject?.email,
          e.workspaceName ?? e.workspaceId,
          e.detail ?? "",
        ]
          .map(csvCell)
          .join(","),
      );
    }
    if (!page.nextBefore) break;
    before = page.nextBefore;
  }
  return `${lines.join("\r\n")}\r\n`;
}
