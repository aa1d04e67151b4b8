import { requireWorkspace } from "@/lib/use-cases/caller";
import { workspaceStatus } from "@/lib/use-cases/server-ops";
import { parseQuery, route } from "@/lib/http";
import { workspaceStatusQuery } from "./schema";

/** Every server's status for the caller; `?connect=1` connects what is not connected yet (idempotent discovery). */
export const GET = route(async (request: Request) => {
  const caller = await requireWorkspace(request);
  const query = parseQuery(request, workspaceStatusQuery);
  return Response.json(await workspaceStatus(caller, query.connect === "1"));
});
