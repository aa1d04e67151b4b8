import { getDb } from "@/db/client";
import { requireWorkspaceById } from "@/lib/auth/workspace";
import { idParam, parseJson, route } from "@/lib/http";
import { setWorkspaceModel, workspaceModelView } from "@/lib/models/workspace-default";
import { workspaceModelBody } from "./schema";

type Context = { params: Promise<{ id: string }> };

/** The workspace's default model (key masked); members use it unless they chose their own. */
export const GET = route(async (_request: Request, context: Context) => {
  const caller = await requireWorkspaceById(await idParam(context));
  return Response.json(workspaceModelView(getDb(), caller.workspaceId));
});

/** Set the default model (owners/admins); omit `apiKey` to keep the stored one. */
export const PUT = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspaceById(await idParam(context), { role: "admin" });
  const body = await parseJson(request, workspaceModelBody);
  return Response.json(setWorkspaceModel(getDb(), caller, body));
});
