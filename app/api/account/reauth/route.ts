import { parseJson, route } from "@/lib/http";
import { requireUser } from "@/lib/use-cases/caller";
import { reauth } from "@/lib/use-cases/second-factors";
import { reauthBody } from "./schema";

/** Re-authenticate with `{password}` or `{code}`: sensitive acts are allowed for the next 10 minutes. */
export const POST = route(async (request: Request) => {
  const user = await requireUser(request);
  const body = await parseJson(request, reauthBody);
  await reauth(user, request, body);
  return new Response(null, { status: 204 });
});
