import { param, parseJson, route } from "@/lib/http";
import { registerByInvitation } from "@/lib/use-cases/workspaces";
import { invitationRegisterBody } from "./schema";

type Context = { params: Promise<{ token: string }> };

/**
 * Register the invited email through the link and join (works with registration closed: the
 * token is the permission). Public by design: the single-use token authorizes it, no session yet.
 */
export const POST = route(async (request: Request, context: Context) => {
  const body = await parseJson(request, invitationRegisterBody);
  return Response.json(await registerByInvitation(await param(context, "token"), body), { status: 201 });
});
