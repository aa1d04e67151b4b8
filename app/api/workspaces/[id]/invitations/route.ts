import { requireWorkspaceById } from "@/lib/use-cases/caller";
import { idParam, parseJson, route } from "@/lib/http";
import { inviteToWorkspace, workspaceInvitations } from "@/lib/use-cases/workspaces";
import { invitationBody } from "./schema";

type Context = { params: Promise<{ id: string }> };

/** Pending invitations (owners/admins; tokens are never listed). */
export const GET = route(async (_request: Request, context: Context) => {
  const caller = await requireWorkspaceById(await idParam(context), { role: "admin" });
  return Response.json({ invitations: workspaceInvitations(caller) });
});

/** Invite `{email, role}` → 201 `{id, token, url}`: the link is shown once, to copy. */
export const POST = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspaceById(await idParam(context), { role: "admin" });
  const body = await parseJson(request, invitationBody);
  return Response.json(inviteToWorkspace(caller, body, request), {
    status: 201,
    headers: { "cache-control": "no-store" },
  });
});
