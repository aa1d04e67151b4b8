import { chatWithMessages, deleteChat, renameChat } from "@/lib/use-cases/chats";
import { requireWorkspace } from "@/lib/use-cases/caller";
import { idParam, parseJson, route } from "@/lib/http";
import { renameChatBody } from "./schema";

type Context = { params: Promise<{ id: string }> };

/** One of the caller's chats in the workspace with its messages (404 for anyone else's). */
export const GET = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspace(request);
  return Response.json(await chatWithMessages(caller, await idParam(context)));
});

/** Rename. */
export const PATCH = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspace(request);
  const body = await parseJson(request, renameChatBody);
  return Response.json(await renameChat(caller, await idParam(context), body.title));
});

/** Delete with all messages. */
export const DELETE = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspace(request);
  await deleteChat(caller, await idParam(context));
  return new Response(null, { status: 204 });
});
