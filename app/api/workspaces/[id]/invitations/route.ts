import { requireWorkspaceById } from "@/lib/use-cases/caller";
import { idParam, parseJson, route } from "@/lib/http";
import { deliverInvitation } from "@/lib/use-cases/mail-links";
import { inviteToWorkspace, workspaceInvitations } from "@/lib/use-cases/workspaces";
import { invitationBody } from "./schema";

type Context = { params: Promise<{ id: string }> };

/** Pending invitations (owners/admins; tokens are never listed). */
export const GET = route(async (_request: Request, context: Context) => {
  const caller = await requireWorkspaceById(await idParam(context), { role: "admin" });
  return Response.json({ invitations: await workspaceInvitations(caller) });
});

/**
 * Invite `{email, role}` → 201 `{id, emailed: true}` when mail is set up (the link went to the
 * invited address), else `{id, token, url, emailed: false}`: the link is shown once, to copy.
 */
export const POST = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspaceById(await idParam(context), { role: "admin" });
  const body = await parseJson(request, invitationBody);
  const invitation = await inviteToWorkspace(caller, body, request);
  return Response.json(await deliverInvitation(invitation, { email: body.email, workspaceName: caller.workspace.name }), {
    status: 201,
    headers: { "cache-control": "no-store" },
  });
});
