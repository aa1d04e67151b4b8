import { requireWorkspaceById } from "@/lib/use-cases/caller";
import { idParam, route } from "@/lib/http";
import { workspaceMembers } from "@/lib/use-cases/workspaces";

type Context = { params: Promise<{ id: string }> };

/** The workspace's members with their roles (any member may see them). */
export const GET = route(async (_request: Request, context: Context) => {
  const caller = await requireWorkspaceById(await idParam(context));
  return Response.json({ members: await workspaceMembers(caller) });
});
