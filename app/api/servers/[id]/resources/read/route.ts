import { requireWorkspace } from "@/lib/use-cases/caller";
import { readServerResource } from "@/lib/use-cases/server-ops";
import { idParam, parseJson, route } from "@/lib/http";
import { readResourceBody } from "./schema";

type Context = { params: Promise<{ id: string }> };

/** resources/read for one URI. */
export const POST = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspace(request);
  const { uri } = await parseJson(request, readResourceBody);
  return Response.json(await readServerResource(caller, await idParam(context), uri, request.signal));
});
