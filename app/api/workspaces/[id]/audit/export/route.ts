import { requireWorkspaceById } from "@/lib/use-cases/caller";
import { idParam, parseQuery, route } from "@/lib/http";
import { workspaceAuditCsv } from "@/lib/use-cases/audit-export";
import { auditQuery } from "./schema";

type Context = { params: Promise<{ id: string }> };

/** The workspace's audit log as CSV, with the same filters as its JSON route (owners/admins). */
export const GET = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspaceById(await idParam(context), { role: "admin" });
  return await workspaceAuditCsv(caller, parseQuery(request, auditQuery));
});
