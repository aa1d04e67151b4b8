import { requireWorkspace, slugOf } from "@/lib/use-cases/caller";
import { serverInfo } from "@/lib/use-cases/server-ops";
import { idParam, route } from "@/lib/http";

type Context = { params: Promise<{ id: string }> };

/** The inspector header: status, capabilities, instructions and safe icons; never connects. */
export const GET = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspace(request);
  return Response.json(await serverInfo(caller, await idParam(context), slugOf(caller.workspace)));
});
