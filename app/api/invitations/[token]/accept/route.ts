import { requireUser } from "@/lib/use-cases/caller";
import { param, route } from "@/lib/http";
import { acceptInvitation } from "@/lib/use-cases/workspaces";

type Context = { params: Promise<{ token: string }> };

/** Accept an invitation as the signed-in user (who must be the invited email) → `{workspaceId}`. */
export const POST = route(async (_request: Request, context: Context) => {
  const user = await requireUser();
  return Response.json(await acceptInvitation(user, await param(context, "token")));
});
