import { requireWorkspace } from "@/lib/use-cases/caller";
import { idParam, parseJson, route } from "@/lib/http";
import { memberValues, setOwnMemberValues } from "@/lib/use-cases/saved-servers";
import { memberValuesBody } from "./schema";

type Context = { params: Promise<{ id: string }> };

/** Which per-member keys the server has and which of them the caller has filled (never the values). */
export const GET = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspace(request);
  return Response.json(await memberValues(caller, await idParam(context)));
});

/** Set the caller's own values (encrypted per user); sending the mask keeps a stored value. */
export const PUT = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspace(request);
  const body = await parseJson(request, memberValuesBody);
  return Response.json(await setOwnMemberValues(caller, await idParam(context), body.values));
});
