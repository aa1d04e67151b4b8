import { getDb } from "@/db/client";
import { requireWorkspaceById } from "@/lib/auth/workspace";
import { idParam, route } from "@/lib/http";
import { listWorkspaceMembers } from "@/lib/workspaces/members";

type Context = { params: Promise<{ id: string }> };

/** The workspace's members with their roles (any member may see them). */
export const GET = route(async (_request: Request, context: Context) => {
  const caller = await requireWorkspaceById(await idParam(context));
  return Response.json({ members: listWorkspaceMembers(getDb(), caller) });
});
