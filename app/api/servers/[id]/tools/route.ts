import { requireWorkspace } from "@/lib/use-cases/caller";
import { serverTools } from "@/lib/use-cases/server-ops";
import { idParam, route } from "@/lib/http";

type Context = { params: Promise<{ id: string }> };

/** The server's registered tools: registered and raw name, title, description, schema, annotations. */
export const GET = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspace(request);
  return Response.json(await serverTools(caller, await idParam(context)));
});
