import { requireWorkspace } from "@/lib/use-cases/caller";
import { serverResources } from "@/lib/use-cases/server-ops";
import { idParam, route } from "@/lib/http";

type Context = { params: Promise<{ id: string }> };

/** The server's resources and resource templates. */
export const GET = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspace(request);
  return Response.json(await serverResources(caller, await idParam(context)));
});
