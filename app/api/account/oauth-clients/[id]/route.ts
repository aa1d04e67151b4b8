import { idParam, route } from "@/lib/http";
import { requireUser } from "@/lib/use-cases/caller";
import { revokeMyConnectedClient } from "@/lib/use-cases/oauth-server";

type Context = { params: Promise<{ id: string }> };

/** Revoke one of the caller's connected OAuth clients: its grant and every token of it; another user's is a 404. */
export const DELETE = route(async (request: Request, context: Context) => {
  const user = await requireUser(request);
  await revokeMyConnectedClient(user, await idParam(context));
  return new Response(null, { status: 204 });
});
