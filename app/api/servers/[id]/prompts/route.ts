import { requireWorkspace } from "@/lib/use-cases/caller";
import { serverPrompts } from "@/lib/use-cases/server-ops";
import { idParam, route } from "@/lib/http";

type Context = { params: Promise<{ id: string }> };

/** The server's prompts with their arguments. */
export const GET = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspace(request);
  return Response.json(await serverPrompts(caller, await idParam(context)));
});
