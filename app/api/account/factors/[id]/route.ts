import { idParam, parseJson, route } from "@/lib/http";
import { requireUser } from "@/lib/use-cases/caller";
import { removeMyFactor } from "@/lib/use-cases/second-factors";
import { removeFactorBody } from "./schema";

type Context = { params: Promise<{ id: string }> };

/** Remove one of the caller's second factors; `{code}` must be a current code or a recovery code. */
export const DELETE = route(async (request: Request, context: Context) => {
  const user = await requireUser(request);
  const body = await parseJson(request, removeFactorBody);
  await removeMyFactor(user, request, await idParam(context), body);
  return new Response(null, { status: 204 });
});
