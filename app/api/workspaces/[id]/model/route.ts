import { requireWorkspaceById } from "@/lib/use-cases/caller";
import { idParam, parseJson, route } from "@/lib/http";
import { setWorkspaceDefaultModel, workspaceModel } from "@/lib/use-cases/workspaces";
import { workspaceModelBody } from "./schema";

type Context = { params: Promise<{ id: string }> };

/** The workspace's default model (key masked); members use it unless they chose their own. */
export const GET = route(async (_request: Request, context: Context) => {
  const caller = await requireWorkspaceById(await idParam(context));
  return Response.json(await workspaceModel(caller));
});

/** Set the default model (owners/admins); omit `apiKey` to keep the stored one. */
export const PUT = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspaceById(await idParam(context), { role: "admin" });
  const body = await parseJson(request, workspaceModelBody);
  return Response.json(await setWorkspaceDefaultModel(caller, body));
});
