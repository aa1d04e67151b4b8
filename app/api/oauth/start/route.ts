import { getDb } from "@/db/client";
import { requireUser } from "@/lib/auth/session";
import { route } from "@/lib/http";
import { appPool, workspaceServerDefinition } from "@/lib/host/engine";
import { appOAuthDeps } from "@/lib/oauth/app-deps";
import { beginAuthorization } from "@/lib/oauth/web-flow";
import { readServerRef } from "../schema";

/**
 * Connect: start an authorization of one of the caller's servers. Answers `{status: "redirect",
 * url}` (open it in the browser) or `{status: "authorized"}` (a refresh sufficed; reconnected).
 */
export const POST = route(async (request: Request) => {
  const user = await requireUser();
  const { serverId } = await readServerRef(request);
  const server = workspaceServerDefinition(getDb(), user, serverId);
  const result = await beginAuthorization(appOAuthDeps(), user.id, server);
  if (result.status === "authorized") await appPool().reconnect(user.id, server);
  return Response.json(result, { headers: { "cache-control": "no-store" } });
});
