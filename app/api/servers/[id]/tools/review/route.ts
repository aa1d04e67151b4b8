import { getDb } from "@/db/client";
import { requireUser } from "@/lib/auth/session";
import { idParam, route } from "@/lib/http";
import { parseBody } from "@/lib/host/server-api";
import { reviewHeldTool, toolReviewSchema } from "@/lib/trust/trust-service";

type Context = { params: Promise<{ id: string }> };

/** Approve the reviewed definition (`hash`) of a held tool; refused when it changed again (audited). */
export const POST = route(async (request: Request, context: Context) => {
  const body = await parseBody(request, toolReviewSchema);
  const user = await requireUser();
  reviewHeldTool(getDb(), user, await idParam(context), body);
  return new Response(null, { status: 204 });
});
