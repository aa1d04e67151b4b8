import { route } from "@/lib/http";
import { requireUser } from "@/lib/use-cases/caller";
import { passkeyReauthOptions } from "@/lib/use-cases/passkeys";

/** Options for proving it is you with one of your passkeys (re-authentication, removing a factor). */
export const POST = route(async (request: Request) => {
  const user = await requireUser(request);
  return Response.json(await passkeyReauthOptions(user, request));
});
