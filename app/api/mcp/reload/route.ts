import { getDb } from "@/db/client";
import { requireUser } from "@/lib/auth/session";
import { route } from "@/lib/http";
import { appPool, workspaceServerDefinitions } from "@/lib/host/engine";

/** Re-read the caller's server configs and reconnect only what changed (the reference's /reload-mcp). */
export const POST = route(async () => {
  const user = await requireUser();
  const servers = workspaceServerDefinitions(getDb(), user);
  const pool = appPool();
  await pool.reload(user.id, servers);
  return Response.json({ servers: servers.map((server) => pool.status(user.id, server)) });
});
