import { route } from "@/lib/http";
import { appPool } from "@/lib/host/engine";
import { callerAndServer, parseBody, toolCallBody } from "@/lib/host/server-api";

type Context = { params: Promise<{ id: string }> };

/**
 * Call a tool by its raw name. The body is the MCP CallToolResult (tool errors arrive as
 * `isError: true`); the duration is in `Server-Timing`. Closing the request cancels the call.
 */
export const POST = route(async (request: Request, context: Context) => {
  const { user, server } = await callerAndServer(context);
  const body = await parseBody(request, toolCallBody);
  const outcome = await appPool().callTool(user.id, server, body.name, body.arguments, { signal: request.signal });
  return Response.json(
    { ...outcome.content, ...(outcome.errorCode ? { errorCode: outcome.errorCode } : {}) },
    { headers: { "Server-Timing": `mcp;dur=${outcome.durationMs.toFixed(1)}` } },
  );
});
