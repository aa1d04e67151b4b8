import { getDb } from "@/db/client";
import { requireUser } from "@/lib/auth/session";
import { idParam, readJson, route } from "@/lib/http";
import { changeServer, getServer, removeServer, serverView } from "@/lib/servers/service";

type Context = { params: Promise<{ id: string }> };

/** One server of the caller's workspace; another workspace's id is a 404. */
export const GET = route(async (_request: Request, context: Context) => {
  const user = await requireUser();
  return Response.json(serverView(getServer(getDb(), user, await idParam(context))));
});

/** Change a server's name and/or config. */
export const PATCH = route(async (request: Request, context: Context) => {
  const user = await requireUser();
  const record = changeServer(getDb(), user, await idParam(context), await readJson(request));
  return Response.json(serverView(record));
});

/** Delete a server. */
export const DELETE = route(async (_request: Request, context: Context) => {
  const user = await requireUser();
  removeServer(getDb(), user, await idParam(context));
  return new Response(null, { status: 204 });
});
