import { getDb } from "@/db/client";
import { requireWorkspaceById } from "@/lib/auth/workspace";
import { appAccessEffects } from "@/lib/use-cases/access-effects";
import { param, parseJson, route } from "@/lib/http";
import { changeMemberRole, removeMember } from "@/lib/workspaces/members";
import { memberRoleBody } from "./schema";

type Context = { params: Promise<{ id: string; userId: string }> };

/** Change a member's role (owners; admins for non-owners). The last owner cannot be demoted. */
export const PATCH = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspaceById(await param(context, "id"), { role: "admin" });
  const body = await parseJson(request, memberRoleBody);
  return Response.json(await changeMemberRole(getDb(), caller, await param(context, "userId"), body.role, appAccessEffects()));
});

/** Remove a member, or leave (your own id, any role). Takes effect at once. */
export const DELETE = route(async (_request: Request, context: Context) => {
  const caller = await requireWorkspaceById(await param(context, "id"));
  await removeMember(getDb(), caller, await param(context, "userId"), appAccessEffects());
  return new Response(null, { status: 204 });
});
