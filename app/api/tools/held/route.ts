import { getDb } from "@/db/client";
import { requireUser } from "@/lib/auth/session";
import { route } from "@/lib/http";
import { workspaceServerDefinitions } from "@/lib/host/engine";
import { workspaceHeldTools } from "@/lib/trust/trust-service";

/** Tools of the caller's workspace held for review (new or changed definitions); the model does not get them. */
export const GET = route(async () => {
  const user = await requireUser();
  const db = getDb();
  return Response.json({ held: workspaceHeldTools(db, workspaceServerDefinitions(db, user)) });
});
