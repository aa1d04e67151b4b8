import { requireWorkspace } from "@/lib/use-cases/caller";
import { parseQuery, route } from "@/lib/http";
import { catalogForWorkspace } from "@/lib/use-cases/catalog";
import { catalogQuery } from "./schema";

/** The catalog entries this workspace may add (`?q=` searches), each with the ways it runs and their generated forms. */
export const GET = route(async (request: Request) => {
  const caller = await requireWorkspace(request);
  const query = parseQuery(request, catalogQuery);
  return Response.json({ entries: await catalogForWorkspace(caller, query.q) });
});
