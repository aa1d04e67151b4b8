import { getDb } from "@/db/client";
import { requireInstanceAdmin } from "@/lib/auth/workspace";
import { parseQuery, route } from "@/lib/http";
import { auditPage } from "@/lib/workspaces/admin";
import { auditQuery } from "./schema";

/** The whole audit log, filtered by `user`, `workspace`, `action`; paginated with `before` (instance administrators). */
export const GET = route(async (request: Request) => {
  await requireInstanceAdmin();
  const query = parseQuery(request, auditQuery);
  return Response.json(auditPage(getDb(), query));
});
