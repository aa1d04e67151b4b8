import { getDb } from "@/db/client";
import { requireInstanceAdmin } from "@/lib/auth/workspace";
import { route } from "@/lib/http";
import { adminListWorkspaces } from "@/lib/workspaces/admin";

/** Every workspace with its member count (instance administrators). */
export const GET = route(async () => {
  await requireInstanceAdmin();
  return Response.json(adminListWorkspaces(getDb()));
});
