import { getDb } from "@/db/client";
import { requireUser } from "@/lib/auth/session";
import { route } from "@/lib/http";
import { appPool, workspaceServerDefinition } from "@/lib/host/engine";
import { appOAuthDeps } from "@/lib/oauth/app-deps";
import { disconnect } from "@/lib/oauth/web-flow";
import { readServerRef } from "../schema";

/** Disconnect: revoke the caller's tokens for one server (where supported), forget them, close the connection. */
export const POST = route(async (request: Request) => {
  const user = await requireUser();
  const { serverId } = await readServerRef(request);
  const server = workspaceServerDefinition(getDb(), user, serverId);
  const result = await disconnect(appOAuthDeps(), user.id, server);
  await appPool().close(user.id, server.id);
  return Response.json({ ...result, status: appPool().status(user.id, server) });
});
