import { z } from "zod";
import { requireUser } from "@/lib/auth/session";
import { AppError } from "@/lib/errors";
import { idParam, route } from "@/lib/http";
import { elicitationBroker } from "@/lib/host/elicitations";
import { parseBody } from "@/lib/host/server-api";

const answerBody = z
  .object({
    action: z.enum(["accept", "decline", "cancel"]),
    content: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())])).optional(),
  })
  .strict();

/** Answer one of the caller's elicitation requests; anyone else's id is a 404. */
export const POST = route(async (request: Request, context: { params: Promise<{ id: string }> }) => {
  const user = await requireUser();
  const body = await parseBody(request, answerBody);
  const result = body.action === "accept" ? { action: "accept" as const, content: body.content ?? {} } : { action: body.action };
  if (!elicitationBroker().answer(user.id, await idParam(context), result))
    throw new AppError("pending.not_found", "No such pending request.");
  return new Response(null, { status: 204 });
});
