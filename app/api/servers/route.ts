import { requireWorkspace } from "@/lib/use-cases/caller";
import { parseJson, route } from "@/lib/http";
import { addAndStartServer, workspaceServers } from "@/lib/use-cases/saved-servers";
import { serverBody } from "./schema";

/** The servers of the workspace (secrets masked). */
export const GET = route(async (request: Request) => {
  const caller = await requireWorkspace(request);
  return Response.json({ servers: await workspaceServers(caller) });
});

/** Add a server (owners/admins): `{name, config}` with the keys of docs/configuration.md; it starts at once. */
export const POST = route(async (request: Request) => {
  const caller = await requireWorkspace(request);
  const body = await parseJson(request, serverBody);
  return Response.json(await addAndStartServer(caller, body), { status: 201 });
});
