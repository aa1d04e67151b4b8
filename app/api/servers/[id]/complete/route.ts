import { requireWorkspace } from "@/lib/use-cases/caller";
import { completeServerArgument } from "@/lib/use-cases/server-ops";
import { idParam, parseJson, route } from "@/lib/http";
import { completeBody } from "./schema";

type Context = { params: Promise<{ id: string }> };

/** completion/complete suggestions for a prompt or resource-template argument. */
export const POST = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspace(request);
  const body = await parseJson(request, completeBody);
  return Response.json(await completeServerArgument(caller, await idParam(context), body));
});
