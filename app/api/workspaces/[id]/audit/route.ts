import { getDb } from "@/db/client";
import { requireWorkspaceById } from "@/lib/auth/workspace";
import { idParam, parseQuery, route } from "@/lib/http";
import { auditPage } from "@/lib/workspaces/admin";
import { auditQuery } from "./schema";

type Context = { params: Promise<{ id: string }> };

/** The workspace's audit log, newest first, paginated (owners/admins). */
export const GET = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspaceById(await idParam(context), { role: "admin" });
  const query = parseQuery(request, auditQuery);
  return Response.json(auditPage(getDb(), query, { workspaceId: caller.workspaceId }));
});
