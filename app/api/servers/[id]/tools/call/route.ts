import { requireWorkspace } from "@/lib/auth/workspace";
import { callServerTool } from "@/lib/host/server-ops";
import { idParam, parseJson, route } from "@/lib/http";
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
  const json = JSON.stringify({ ...outcome.content, ...(outcome.errorCode ? { errorCode: outcome.errorCode } : {}) });
  // A known length spares the chunked encoding's closing write: one socket write fewer per call.
  return new Response(json, {
    headers: {
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength(json)),
      "Server-Timing": `mcp;dur=${outcome.durationMs.toFixed(1)}`,
    },
  });
});
