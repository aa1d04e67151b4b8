import { getDb } from "@/db/client";
import { deleteOwnChat, openChat, renameOwnChat } from "@/lib/agent/chat-service";
import { requireWorkspace } from "@/lib/auth/workspace";
import { idParam, parseJson, route } from "@/lib/http";
import { renameChatBody } from "./schema";

type Context = { params: Promise<{ id: string }> };

/** One of the caller's chats in the workspace with its messages (404 for anyone else's). */
export const GET = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspace(request);
  return Response.json(openChat(getDb(), caller, await idParam(context)));
});

/** Rename. */
export const PATCH = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspace(request);
  const body = await parseJson(request, renameChatBody);
  return Response.json(renameOwnChat(getDb(), caller, await idParam(context), body.title));
});

/** Delete with all messages. */
export const DELETE = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspace(request);
  deleteOwnChat(getDb(), caller, await idParam(context));
  return new Response(null, { status: 204 });
});
