import { idParam, route } from "@/lib/http";
import { requireUser } from "@/lib/use-cases/caller";
import { revokeMyToken } from "@/lib/use-cases/personal-tokens";

type Context = { params: Promise<{ id: string }> };

/** Revoke one of the caller's personal access tokens; another user's is a 404. */
export const DELETE = route(async (request: Request, context: Context) => {
  const user = await requireUser(request);
  await revokeMyToken(user, await idParam(context));
  return new Response(null, { status: 204 });
});
