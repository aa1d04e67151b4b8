import { requireWorkspace } from "@/lib/use-cases/caller";
import { serverStatus } from "@/lib/use-cases/server-ops";
import { idParam, parseQuery, route } from "@/lib/http";
import { statusQuery } from "./schema";

type Context = { params: Promise<{ id: string }> };

/** The caller's connection status for this server; `?connect=1` connects it first if needed. */
export const GET = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspace(request);
  const query = parseQuery(request, statusQuery);
  return Response.json(await serverStatus(caller, await idParam(context), query.connect === "1"));
});
