import { requireWorkspace } from "@/lib/use-cases/caller";
import { setServerLogLevel } from "@/lib/use-cases/server-logs";
import { idParam, parseJson, route } from "@/lib/http";
import { logLevelBody } from "./schema";

type Context = { params: Promise<{ id: string }> };

/** Send `logging/setLevel` on the caller's connection to this server. */
export const PUT = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspace(request);
  const body = await parseJson(request, logLevelBody);
  return Response.json(await setServerLogLevel(caller, await idParam(context), body.level));
});
