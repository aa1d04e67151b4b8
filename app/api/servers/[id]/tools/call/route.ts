import { requireWorkspace } from "@/lib/use-cases/caller";
import { callServerTool } from "@/lib/use-cases/server-ops";
import { idParam, jsonResponse, parseJson, route } from "@/lib/http";
import { toolCallBody } from "./schema";

type Context = { params: Promise<{ id: string }> };

/**
 * Call a tool by its raw name. The body is the MCP CallToolResult (tool errors arrive as
 * `isError: true`); the duration is in `Server-Timing`. Closing the request cancels the call.
 */
export const POST = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspace(request);
  const body = await parseJson(request, toolCallBody);
  const outcome = await callServerTool(caller, await idParam(context), body, request.signal);
  return jsonResponse(
    { ...outcome.content, ...(outcome.errorCode ? { errorCode: outcome.errorCode } : {}) },
    { headers: { "Server-Timing": `mcp;dur=${outcome.durationMs.toFixed(1)}` } },
    request,
  );
});
