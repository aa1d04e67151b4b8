import { getDb } from "@/db/client";
import { requireWorkspace } from "@/lib/auth/workspace";
import { idParam, parseJson, route } from "@/lib/http";
import { memberValuesView, setMemberValues } from "@/lib/servers/member-values";
import { memberValuesBody } from "./schema";

type Context = { params: Promise<{ id: string }> };

/** Which per-member keys the server has and which of them the caller has filled (never the values). */
export const GET = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspace(request);
  return Response.json(memberValuesView(getDb(), caller, await idParam(context)));
});

/** Set the caller's own values (encrypted per user); sending the mask keeps a stored value. */
export const PUT = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspace(request);
  const body = await parseJson(request, memberValuesBody);
  return Response.json(setMemberValues(getDb(), caller, await idParam(context), body.values));
});
