import { requireWorkspace } from "@/lib/use-cases/caller";
import { parseQuery, route } from "@/lib/http";
import { exportServers } from "@/lib/use-cases/saved-servers";
import { exportQuery } from "./schema";

/** The workspace's servers as an `mcp_servers:` document (YAML or JSON), secret values as `${input:…}` placeholders. */
export const GET = route(async (request: Request) => {
  const caller = await requireWorkspace(request);
  const { format } = parseQuery(request, exportQuery);
  return new Response(await exportServers(caller, format), {
    headers: {
      "content-type": format === "json" ? "application/json; charset=utf-8" : "application/yaml; charset=utf-8",
      "content-disposition": `attachment; filename="mcp-servers.${format}"`,
    },
  });
});
