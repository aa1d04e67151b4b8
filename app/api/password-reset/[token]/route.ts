import { param, parseJson, route } from "@/lib/http";
import { resetPassword } from "@/lib/use-cases/mail-links";
import { passwordResetBody } from "./schema";

type Context = { params: Promise<{ token: string }> };

/**
 * Set a new password through a reset link: `{password}` → `{email, endedSessions}`; every session of
 * the account ends. Public by design: the single-use, one-hour token is the permission.
 */
export const POST = route(async (request: Request, context: Context) => {
  const body = await parseJson(request, passwordResetBody);
  return Response.json(await resetPassword(await param(context, "token"), body), { headers: { "cache-control": "no-store" } });
});
