import { getDb } from "@/db/client";
import { requireWorkspace } from "@/lib/auth/workspace";
import { parseJson, route } from "@/lib/http";
import { addAndStartServer } from "@/lib/use-cases/saved-servers";
import { listServers } from "@/lib/servers/service";
import { serverBody } from "./schema";

/** The servers of the workspace (secrets masked). */
export const GET = route(async (request: Request) => {
  const caller = await requireWorkspace(request);
  return Response.json({ servers: listServers(getDb(), caller) });
});

/** Add a server (owners/admins): `{name, config}` with the keys of docs/configuration.md; it starts at once. */
export const POST = route(async (request: Request) => {
  const caller = await requireWorkspace(request);
  const body = await parseJson(request, serverBody);
  return Response.json(addAndStartServer(caller, body), { status: 201 });
});
