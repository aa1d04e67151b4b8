import { requireWorkspaceById } from "@/lib/use-cases/caller";
import { idParam, parseJson, route } from "@/lib/http";
import { setWorkspaceToolSearch, workspaceToolSearch } from "@/lib/use-cases/workspaces";
import { toolSearchBody } from "./schema";

type Context = { params: Promise<{ id: string }> };

/** The workspace's tool-search settings (docs/tool-search.md); any member may read them. */
export const GET = route(async (_request: Request, context: Context) => {
  const caller = await requireWorkspaceById(await idParam(context));
  return Response.json(await workspaceToolSearch(caller));
});

/** Change them (owners/admins). */
export const PUT = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspaceById(await idParam(context), { role: "admin" });
  const body = await parseJson(request, toolSearchBody);
  return Response.json(await setWorkspaceToolSearch(caller, body));
});
