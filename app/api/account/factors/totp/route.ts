import { parseJson, route } from "@/lib/http";
import { requireUser } from "@/lib/use-cases/caller";
import { startTotp } from "@/lib/use-cases/second-factors";
import { startTotpBody } from "./schema";

/** Start adding an authenticator app: `{factorId, secret, uri}`, the secret shown this once. */
export const POST = route(async (request: Request) => {
  const user = await requireUser(request);
  const body = await parseJson(request, startTotpBody);
  return Response.json(await startTotp(user, body));
});
