import { readAppResource } from "@/lib/use-cases/app-resource";
import { requireWorkspace } from "@/lib/use-cases/caller";
import { parseQuery, route } from "@/lib/http";
import { appResourceQuery } from "./schema";

/** An MCP App's HTML and declared CSP, for the chat's sandboxed frame (docs/mcp-apps.md). */
export const GET = route(async (request: Request) => {
  const caller = await requireWorkspace(request);
  const query = parseQuery(request, appResourceQuery);
  return Response.json(await readAppResource(caller, query.serverId, query.uri, request.signal));
});
