import { requireWorkspace } from "@/lib/use-cases/caller";
import { serverLogLines } from "@/lib/use-cases/server-logs";
import { idParam, route } from "@/lib/http";

type Context = { params: Promise<{ id: string }> };

/** The caller's recent log of this server `[{time, level, source, text}]`, redacted; never connects. */
export const GET = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspace(request);
  return Response.json(await serverLogLines(caller, await idParam(context)));
});
