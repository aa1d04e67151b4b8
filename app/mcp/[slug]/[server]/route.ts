import { requireToken } from "@/lib/use-cases/caller";
import { gatewayResponse, withBearerChallenge } from "@/lib/use-cases/gateway";
import { route } from "@/lib/http";

type Context = { params: Promise<{ slug: string; server: string }> };

/**
 * One workspace server as an MCP server (Streamable HTTP, docs/gateway.md), for a personal access
 * token with the `mcp` scope. A refused token is a 401 with `WWW-Authenticate: Bearer`; another
 * workspace's slug or an unknown server is a 404.
 */
async function serve(request: Request, context: Context): Promise<Response> {
  const response = await route(async () => {
    const caller = await requireToken(request, "mcp");
    const { slug, server } = await context.params;
    return await gatewayResponse(caller, decodeURIComponent(slug), decodeURIComponent(server), request);
  })();
  return withBearerChallenge(response, request);
}

/** JSON-RPC requests, notifications and responses (and a 2025-era client's `initialize`). */
export const POST = serve;
/** A 2025-era session's stream of server messages. */
export const GET = serve;
/** A 2025-era client ending its session. */
export const DELETE = serve;
