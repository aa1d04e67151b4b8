/**
 * The audit log as a CSV download: the workspace's (its owners and admins) and the instance's
 * (instance administrators); the routes check the caller first, this binds the database handle.
 */
import "server-only";
import type { z } from "zod";
import { getDb } from "../../db/client";
import type { WorkspaceCaller } from "../auth/workspace";
import { auditCsv, type auditQuerySchema } from "../workspaces/audit-view";

/** A `text/csv` attachment named for what it holds. */
function csvResponse(csv: string, name: string): Response {
  return new Response(csv, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${name}-${new Date().toISOString().slice(0, 10)}.csv"`,
      "cache-control": "no-store",
    },
  });
}

/** The workspace's audit log, filtered as the query says, as CSV. */
export async function workspaceAuditCsv(caller: WorkspaceCaller, query: z.infer<typeof auditQuerySchema>): Promise<Response> {
  return csvResponse(await auditCsv(getDb(), query, { workspaceId: caller.workspaceId }), "workspace-audit");
}

/** The whole instance's audit log, filtered as the query says, as CSV. */
export async function instanceAuditCsv(query: z.infer<typeof auditQuerySchema>): Promise<Response> {
  return csvResponse(await auditCsv(getDb(), query), "audit");
}
