import { getDb } from "@/db/client";
import { requireWorkspace } from "@/lib/auth/workspace";
import { appAccessEffects } from "@/lib/use-cases/access-effects";
import { idParam, parseJson, route } from "@/lib/http";
import { changeAndStartServer } from "@/lib/use-cases/saved-servers";
import { removeServerNow, serverViewById } from "@/lib/servers/service";
import { serverBody } from "./schema";

type Context = { params: Promise<{ id: string }> };

/** One server of the workspace; another workspace's id is a 404. */
export const GET = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspace(request);
  return Response.json(serverViewById(getDb(), caller, await idParam(context)));
});

/** Change a server's name and/or config (owners/admins); it restarts with the new config. */
export const PATCH = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspace(request);
  const body = await parseJson(request, serverBody);
  return Response.json(changeAndStartServer(caller, await idParam(context), body));
});

/** Delete a server (owners/admins); every member's connection to it closes. */
export const DELETE = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspace(request);
  await removeServerNow(getDb(), caller, await idParam(context), appAccessEffects());
  return new Response(null, { status: 204 });
});
