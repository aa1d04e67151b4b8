import { parseJson, route } from "@/lib/http";
import { requireInstanceAdmin } from "@/lib/use-cases/caller";
import { instanceMfaPolicy, setInstanceMfaPolicy } from "@/lib/use-cases/second-factors";
import { mfaPolicyBody } from "./schema";

/** The instance's second-factor policies. */
export const GET = route(async () => {
  await requireInstanceAdmin();
  return Response.json(await instanceMfaPolicy());
});

/** Set `{requiredForAdmins, requiredForEveryone}`; needs a recent sign-in (`auth.reauth_required`). */
export const PUT = route(async (request: Request) => {
  const admin = await requireInstanceAdmin();
  const body = await parseJson(request, mfaPolicyBody);
  return Response.json(await setInstanceMfaPolicy(admin, body));
});
