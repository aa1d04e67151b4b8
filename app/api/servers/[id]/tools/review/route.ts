import { requireWorkspace } from "@/lib/use-cases/caller";
import { approveHeldTool } from "@/lib/use-cases/trust-ops";
import { idParam, parseJson, route } from "@/lib/http";
import { toolReviewBody } from "./schema";

type Context = { params: Promise<{ id: string }> };

/** Approve the reviewed definition (`hash`) of a held tool; refused when it changed again (audited). */
export const POST = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspace(request);
  const body = await parseJson(request, toolReviewBody);
  await approveHeldTool(caller, await idParam(context), body);
  return new Response(null, { status: 204 });
});
