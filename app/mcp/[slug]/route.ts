import type { LaneRoutes, LaneStreamInput } from "@/lib/lane/contract";
import { requireToken } from "@/lib/use-cases/caller";
import { workspaceGatewayResponse, withBearerChallenge } from "@/lib/use-cases/gateway";
import { errorResponse, readBodyText, route } from "@/lib/http";

type Params = { slug: string };
type Context = { params: Promise<Params> };

/**
 * The whole workspace as one MCP server (Streamable HTTP, docs/gateway.md#the-workspace-endpoint),
 * for a personal access token with the `mcp` scope or an access token of Switchboard's authorization
 * server for this endpoint. A refused token is a 401 with
 * `WWW-Authenticate: Bearer`; another workspace's slug is a 404. The token is checked before the body is read.
 */
async function answer({ request, params, body }: LaneStreamInput<Params>): Promise<Response> {
  const caller = await requireToken(request, "mcp");
  return await workspaceGatewayResponse(caller, decodeURIComponent(params.slug), request, body);
}

async function serve(request: Request, context: Context): Promise<Response> {
  const params = await context.params;
  const response = await route(async (request: Request) =>
    answer({ request, params, body: () => readBodyText(request), signal: request.signal }),
  )(request);
  return withBearerChallenge(response, request);
}

/** JSON-RPC requests, notifications and responses (and a 2025-era client's `initialize`). */
export const POST = serve;
/** A 2025-era session's stream of server messages. */
export const GET = serve;
/** A 2025-era client ending its session. */
export const DELETE = serve;

/** The same three on the direct lane (docs/performance.md#the-gateway): the same checks and answer, without Next's router. */
const respond = async (input: LaneStreamInput<Params>) => withBearerChallenge(await answer(input).catch(errorResponse), input.request);
export const lane: LaneRoutes<never, Params> = { POST: { respond }, GET: { respond }, DELETE: { respond } };
