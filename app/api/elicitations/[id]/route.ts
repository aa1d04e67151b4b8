import { requireUser } from "@/lib/use-cases/caller";
import { answerElicitation } from "@/lib/use-cases/user-requests";
import { idParam, parseJson, route } from "@/lib/http";
import { answerBody } from "./schema";

/** Answer one of the caller's elicitation requests; anyone else's id is a 404. */
export const POST = route(async (request: Request, context: { params: Promise<{ id: string }> }) => {
  const user = await requireUser();
  const body = await parseJson(request, answerBody);
  await answerElicitation(user.id, await idParam(context), body);
  return new Response(null, { status: 204 });
});
