import { getDb } from "@/db/client";
import { requireUser } from "@/lib/auth/session";
import { param, route } from "@/lib/http";
import { acceptInvitation } from "@/lib/workspaces/invitations";

type Context = { params: Promise<{ token: string }> };

/** Accept an invitation as the signed-in user (who must be the invited email) → `{workspaceId}`. */
export const POST = route(async (_request: Request, context: Context) => {
  const user = await requireUser();
  return Response.json(acceptInvitation(getDb(), user, await param(context, "token")));
});
