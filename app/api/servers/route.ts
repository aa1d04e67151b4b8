import { getDb } from "@/db/client";
import { requireUser } from "@/lib/auth/session";
import { readJson, route } from "@/lib/http";
import { addServer, listServers, serverView } from "@/lib/servers/service";

/** The servers of the caller's workspace (secrets masked). */
export const GET = route(async () => {
  const user = await requireUser();
  return Response.json({ servers: listServers(getDb(), user) });
});

/** Add a server: `{name, config}` with the keys of docs/configuration.md. */
export const POST = route(async (request: Request) => {
  const user = await requireUser();
  const record = addServer(getDb(), user, await readJson(request));
  return Response.json(serverView(record), { status: 201 });
});
