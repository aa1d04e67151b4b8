import { requireInstanceAdmin } from "@/lib/use-cases/caller";
import { parseQuery, route } from "@/lib/http";
import { instanceAudit } from "@/lib/use-cases/admin";
import { auditQuery } from "./schema";

/** The whole audit log, filtered by `user`, `workspace`, `action`; paginated with `before` (instance administrators). */
export const GET = route(async (request: Request) => {
  await requireInstanceAdmin();
  const query = parseQuery(request, auditQuery);
  return Response.json(await instanceAudit(query));
});
