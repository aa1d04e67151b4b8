import { requireWorkspace, type WorkspaceCaller } from "@/lib/use-cases/caller";
import { callServerTool } from "@/lib/use-cases/server-ops";
import { idParam, parseJson, route } from "@/lib/http";
import type { LaneAnswer, LaneMethod, LaneRoutes } from "@/lib/lane/contract";
import { type ToolCallBody, toolCallBody } from "./schema";

type Context = { params: Promise<{ id: string }> };

// The call itself, after the caller and the body were checked: what Next's handler and the lane share.
async function callTool(caller: WorkspaceCaller, id: string, body: ToolCallBody, signal: AbortSignal): Promise<LaneAnswer> {
  const outcome = await callServerTool(caller, id, body, signal);
  return {
    body: { ...outcome.content, ...(outcome.errorCode ? { errorCode: outcome.errorCode } : {}) },
    headers: { "Server-Timing": `mcp;dur=${outcome.durationMs.toFixed(1)}` },
  };
}

/**
 * Call a tool by its raw name. The body is the MCP CallToolResult (tool errors arrive as
 * `isError: true`); the duration is in `Server-Timing`. Closing the request cancels the call.
 */
export const POST = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspace(request);
  const body = await parseJson(request, toolCallBody);
  const answer = await callTool(caller, await idParam(context), body, request.signal);
  return Response.json(answer.body, { headers: answer.headers });
});

// The lane checks the caller with the same `requireWorkspace` and parses the body with the same
// schema, in the same order as POST above, then hands both to the same call.
const onLane: LaneMethod<WorkspaceCaller, { id: string }, ToolCallBody> = {
  body: toolCallBody,
  handle: (caller, { params, body, signal }) => callTool(caller, params.id, body, signal),
};

/**
 * POST is also served on the direct lane (docs/performance.md#the-direct-lane): every tool call from
 * the UI and from scripts comes here, and Next's router would cost as much CPU as the call itself.
 */
export const lane = { POST: onLane } satisfies LaneRoutes<WorkspaceCaller, { id: string }>;
