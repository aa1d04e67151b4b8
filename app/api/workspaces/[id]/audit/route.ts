import { requireWorkspaceById } from "@/lib/use-cases/caller";
import { idParam, parseQuery, route } from "@/lib/http";
import { workspaceAudit } from "@/lib/use-cases/workspaces";
import { auditQuery } from "./schema";

type Context = { params: Promise<{ id: string }> };

/** The workspace's audit log, newest first, paginated (owners/admins). */
export const GET = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspaceById(await idParam(context), { role: "admin" });
  const query = parseQuery(request, auditQuery);
  return Response.json(await workspaceAudit(caller, query));
});
