import { getDb } from "@/db/client";
import { requireWorkspace } from "@/lib/auth/workspace";
import { parseQuery, route } from "@/lib/http";
import { exportWorkspaceServers } from "@/lib/servers/import-service";
import { exportQuery } from "./schema";

/** The workspace's servers as an `mcp_servers:` document (YAML or JSON), secret values as `${input:…}` placeholders. */
export const GET = route(async (request: Request) => {
  const caller = await requireWorkspace(request);
  const { format } = parseQuery(request, exportQuery);
  return new Response(exportWorkspaceServers(getDb(), caller, format), {
    headers: {
      "content-type": format === "json" ? "application/json; charset=utf-8" : "application/yaml; charset=utf-8",
      "content-disposition": `attachment; filename="mcp-servers.${format}"`,
    },
  });
});
