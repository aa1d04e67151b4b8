import { getDb } from "@/db/client";
import { requireWorkspaceById } from "@/lib/auth/workspace";
import { param, route } from "@/lib/http";
import { revokeWorkspaceInvitation } from "@/lib/workspaces/invitations";

type Context = { params: Promise<{ id: string; invitationId: string }> };

/** Revoke a pending invitation (owners/admins). */
export const DELETE = route(async (_request: Request, context: Context) => {
  const caller = await requireWorkspaceById(await param(context, "id"), { role: "admin" });
  revokeWorkspaceInvitation(getDb(), caller, await param(context, "invitationId"));
  return new Response(null, { status: 204 });
});
