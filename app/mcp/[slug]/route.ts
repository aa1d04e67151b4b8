import { requireToken } from "@/lib/use-cases/caller";
import { workspaceGatewayResponse, withBearerChallenge } from "@/lib/use-cases/gateway";
import { route } from "@/lib/http";

type Context = { params: Promise<{ slug: string }> };

/**
 * The whole workspace as one MCP server (Streamable HTTP, docs/gateway.md#the-workspace-endpoint),
 * for a personal access token with the `mcp` scope or an access token of Switchboard's authorization
 * server for this endpoint. A refused token is a 401 with
 * `WWW-Authenticate: Bearer`; another workspace's slug is a 404.
 */
async function serve(request: Request, context: Context): Promise<Response> {
  const response = await route(async () => {
    const caller = await requireToken(request, "mcp");
    const { slug } = await context.params;
    return await workspaceGatewayResponse(caller, decodeURIComponent(slug), request);
  })();
  return withBearerChallenge(response, request);
}

/** JSON-RPC requests, notifications and responses (and a 2025-era client's `initialize`). */
export const POST = serve;
/** A 2025-era session's stream of server messages. */
export const GET = serve;
/** A 2025-era client ending its session. */
export const DELETE = serve;
