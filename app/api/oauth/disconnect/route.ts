import { requireWorkspace } from "@/lib/use-cases/caller";
import { disconnectServer } from "@/lib/use-cases/oauth-connect";
import { parseJson, route } from "@/lib/http";
import { serverRefBody } from "../schema";

/** Disconnect: revoke the tokens a server uses for the caller (where supported), forget them, close the connection. */
export const POST = route(async (request: Request) => {
  const caller = await requireWorkspace(request);
  const { serverId } = await parseJson(request, serverRefBody, 10_000);
  return Response.json(await disconnectServer(caller, serverId));
});
