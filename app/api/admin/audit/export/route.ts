import { requireInstanceAdmin } from "@/lib/use-cases/caller";
import { parseQuery, route } from "@/lib/http";
import { instanceAuditCsv } from "@/lib/use-cases/audit-export";
import { auditQuery } from "./schema";

/** The whole audit log as CSV, with the same filters as `GET /api/admin/audit` (instance administrators). */
export const GET = route(async (request: Request) => {
  await requireInstanceAdmin();
  return await instanceAuditCsv(parseQuery(request, auditQuery));
});
