import { requireWorkspaceById } from "@/lib/use-cases/caller";
import { param, route } from "@/lib/http";
import { revokeInvitation } from "@/lib/use-cases/workspaces";

type Context = { params: Promise<{ id: string; invitationId: string }> };

/** Revoke a pending invitation (owners/admins). */
export const DELETE = route(async (_request: Request, context: Context) => {
  const caller = await requireWorkspaceById(await param(context, "id"), { role: "admin" });
  await revokeInvitation(caller, await param(context, "invitationId"));
  return new Response(null, { status: 204 });
});
