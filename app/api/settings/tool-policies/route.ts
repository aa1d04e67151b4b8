import { getDb } from "@/db/client";
import { requireUser } from "@/lib/auth/session";
import { route } from "@/lib/http";
import { appPool, workspaceServerDefinitions } from "@/lib/host/engine";
import { parseBody } from "@/lib/host/server-api";
import { listToolPolicyRows, toolPolicyUpdateSchema, updateToolPolicy } from "@/lib/agent/tool-policy-service";

/** Every tool of the caller's servers with its approval policies (own, workspace, effective). */
export const GET = route(async () => {
  const user = await requireUser();
  const db = getDb();
  return Response.json(await listToolPolicyRows(db, appPool(), user, workspaceServerDefinitions(db, user)));
});

/** Set one tool's policy (`scope: "workspace"` for owners/admins), or `policy: null` to return to the default. */
export const PUT = route(async (request: Request) => {
  const body = await parseBody(request, toolPolicyUpdateSchema);
  const user = await requireUser();
  const db = getDb();
  updateToolPolicy(db, user, workspaceServerDefinitions(db, user), body);
  return new Response(null, { status: 204 });
});
