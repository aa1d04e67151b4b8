import { requireWorkspace } from "@/lib/use-cases/caller";
import { reconnectServer } from "@/lib/use-cases/server-ops";
import { idParam, route } from "@/lib/http";

type Context = { params: Promise<{ id: string }> };

/** Drop the caller's connection to this server and connect again now. */
export const POST = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspace(request);
  return Response.json(await reconnectServer(caller, await idParam(context)));
});
