import { getDb } from "@/db/client";
import { changePassword } from "@/lib/auth/account";
import { requireUser } from "@/lib/auth/session";
import { clientAddress } from "@/lib/auth/sign-in-throttle";
import { readJson, route } from "@/lib/http";

/** Change the caller's password; their other sessions end. */
export const POST = route(async (request: Request) => {
  const user = await requireUser();
  const body = await readJson(request);
  const actor = { id: user.id, email: user.email, sessionId: user.sessionId, address: clientAddress(request.headers) };
  return Response.json(await changePassword(getDb(), actor, body));
});
