import { requireWorkspaceById } from "@/lib/use-cases/caller";
import { param, parseJson, route } from "@/lib/http";
import { removeWorkspaceMember, setMemberRole } from "@/lib/use-cases/workspaces";
import { memberRoleBody } from "./schema";

type Context = { params: Promise<{ id: string; userId: string }> };

/** Change a member's role (owners; admins for non-owners). The last owner cannot be demoted. */
export const PATCH = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspaceById(await param(context, "id"), { role: "admin" });
  const body = await parseJson(request, memberRoleBody);
  return Response.json(await setMemberRole(caller, await param(context, "userId"), body.role));
});

/** Remove a member, or leave (your own id, any role). Takes effect at once. */
export const DELETE = route(async (_request: Request, context: Context) => {
  const caller = await requireWorkspaceById(await param(context, "id"));
  await removeWorkspaceMember(caller, await param(context, "userId"));
  return new Response(null, { status: 204 });
});
