import { requireWorkspace } from "@/lib/use-cases/caller";
import { idParam, parseJson, route } from "@/lib/http";
import { changeAndStartServer, removeSavedServer, savedServer } from "@/lib/use-cases/saved-servers";
import { serverChangeBody } from "./schema";

type Context = { params: Promise<{ id: string }> };

/** One server of the workspace; another workspace's id is a 404. */
export const GET = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspace(request);
  return Response.json(await savedServer(caller, await idParam(context)));
});

/** Change a server's name and/or config (owners/admins); it restarts with the new config. */
export const PATCH = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspace(request);
  const body = await parseJson(request, serverChangeBody);
  return Response.json(await changeAndStartServer(caller, await idParam(context), body));
});

/** Delete a server (owners/admins); every member's connection to it closes. */
export const DELETE = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspace(request);
  await removeSavedServer(caller, await idParam(context));
  return new Response(null, { status: 204 });
});
