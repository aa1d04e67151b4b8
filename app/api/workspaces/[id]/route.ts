import { requireWorkspaceById } from "@/lib/use-cases/caller";
import { removeWorkspace, renameWorkspace, workspaceView } from "@/lib/use-cases/workspaces";
import { idParam, parseJson, route } from "@/lib/http";
import { renameWorkspaceBody } from "./schema";

type Context = { params: Promise<{ id: string }> };

/** The workspace with the caller's role (members only; anyone else gets 404). */
export const GET = route(async (_request: Request, context: Context) => {
  const caller = await requireWorkspaceById(await idParam(context));
  return Response.json(workspaceView(caller));
});

/** Rename (owners). */
export const PATCH = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspaceById(await idParam(context), { role: "owner" });
  const body = await parseJson(request, renameWorkspaceBody);
  return Response.json(await renameWorkspace(caller, body.name));
});

/** Delete with its servers, credentials and chats; closes every live connection to its servers (owners). */
export const DELETE = route(async (_request: Request, context: Context) => {
  const caller = await requireWorkspaceById(await idParam(context), { role: "owner" });
  await removeWorkspace(caller);
  return new Response(null, { status: 204 });
});
