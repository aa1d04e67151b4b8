import { chatBody } from "./schema";
import { requireWorkspace } from "@/lib/use-cases/caller";
import { chatTurnResponse } from "@/lib/use-cases/chat-turn";
import { parseJson, route } from "@/lib/http";

// The agent may run for minutes (tool calls); never cache, never prerender.
export const dynamic = "force-dynamic";

/**
 * One agent turn: a new user message or answers to pending approvals. History, tools and tool
 * results come from the server (the chat's stored messages and the workspace's servers).
 */
export const POST = route(async (request: Request) => {
  const caller = await requireWorkspace(request);
  const body = await parseJson(request, chatBody);
  // The turn outlives this request (leaving the page must not stop it): Stop is DELETE /api/chat/:id/stream.
  return chatTurnResponse(caller, body);
});
