import { requireUser } from "@/lib/use-cases/caller";
import { answerSamplingReview } from "@/lib/use-cases/user-requests";
import { idParam, parseJson, route } from "@/lib/http";
import { reviewBody } from "./schema";

/** Approve (optionally edited) or deny one of the caller's sampling reviews; anyone else's id is a 404. */
export const POST = route(async (request: Request, context: { params: Promise<{ id: string }> }) => {
  const user = await requireUser();
  const body = await parseJson(request, reviewBody);
  await answerSamplingReview(user.id, await idParam(context), body);
  return new Response(null, { status: 204 });
});
