import { parseJson, route } from "@/lib/http";
import { requireUser } from "@/lib/use-cases/caller";
import { confirmPasskey } from "@/lib/use-cases/passkeys";
import { confirmPasskeyBody } from "./schema";

/** Add the passkey the authenticator created: `{factorId, recoveryCodes}` (codes only for a first factor, shown this once). */
export const POST = route(async (request: Request) => {
  const user = await requireUser(request);
  const body = await parseJson(request, confirmPasskeyBody);
  return Response.json(await confirmPasskey(user, request, body));
});
