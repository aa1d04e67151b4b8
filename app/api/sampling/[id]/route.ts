import { z } from "zod";
import { requireUser } from "@/lib/auth/session";
import { AppError } from "@/lib/errors";
import { idParam, route } from "@/lib/http";
import { samplingHost } from "@/lib/host/sampling";
import { parseBody } from "@/lib/host/server-api";

const reviewBody = z.discriminatedUnion("action", [
  z.object({ action: z.literal("approve"), text: z.string().max(200_000).optional() }).strict(),
  z.object({ action: z.literal("deny") }).strict(),
]);

/** Approve (optionally edited) or deny one of the caller's sampling reviews; anyone else's id is a 404. */
export const POST = route(async (request: Request, context: { params: Promise<{ id: string }> }) => {
  const user = await requireUser();
  const body = await parseBody(request, reviewBody);
  if (!samplingHost().reviews.answer(user.id, await idParam(context), body))
    throw new AppError("pending.not_found", "No such pending review.");
  return new Response(null, { status: 204 });
});
