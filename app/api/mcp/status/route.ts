import { getDb } from "@/db/client";
import { requireUser } from "@/lib/auth/session";
import { route } from "@/lib/http";
import { appPool, workspaceServerDefinitions } from "@/lib/host/engine";

/** Every server's status for the caller; connects what is not connected yet (idempotent discovery). */
export const GET = route(async () => {
  const user = await requireUser();
  const servers = workspaceServerDefinitions(getDb(), user);
  return Response.json({ servers: await appPool().discover(user.id, servers) });
});
