import { requireWorkspace } from "@/lib/use-cases/caller";
import { resumeChatTurn, stopChatTurn } from "@/lib/use-cases/chat-turn";
import { idParam, route } from "@/lib/http";

// A live stream that may last minutes; never cache, never prerender.
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** Rejoin the running answer of one of the caller's chats: replayed from its start, then live (204 when none runs). */
export const GET = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspace(request);
  return await resumeChatTurn(caller, await idParam(context));
});

/** Stop the running answer of one of the caller's chats. */
export const DELETE = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspace(request);
  return await stopChatTurn(caller, await idParam(context));
});
