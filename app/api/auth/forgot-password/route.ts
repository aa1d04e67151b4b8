import { parseJson, route } from "@/lib/http";
import { forgotPassword } from "@/lib/use-cases/mail-links";
import { forgotPasswordBody } from "./schema";

/**
 * "Forgot password?" `{email}` → 202 with the same answer whether or not the address has an account
 * (a reset link is mailed to it when it has); throttled like sign-in. Public by design: nobody is
 * signed in. 404 `mail.not_configured` when the instance sends no mail.
 */
export const POST = route(async (request: Request) => {
  const body = await parseJson(request, forgotPasswordBody);
  return Response.json(await forgotPassword(request, body), { status: 202, headers: { "cache-control": "no-store" } });
});
