import { parseJson, route } from "@/lib/http";
import { requireUser } from "@/lib/use-cases/caller";
import { confirmTotp } from "@/lib/use-cases/second-factors";
import { confirmTotpBody } from "./schema";

/** Confirm the authenticator with a code: `{recoveryCodes}`, ten single-use codes shown this once. */
export const POST = route(async (request: Request) => {
  const user = await requireUser(request);
  const body = await parseJson(request, confirmTotpBody);
  return Response.json(await confirmTotp(user, body));
});
