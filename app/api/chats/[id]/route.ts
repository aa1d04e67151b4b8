import { getDb } from "@/db/client";
import { requireUser } from "@/lib/auth/session";
import { idParam, route } from "@/lib/http";
import { parseBody } from "@/lib/host/server-api";
import { chatTitleSchema, deleteOwnChat, openChat, renameOwnChat } from "@/lib/agent/chat-service";

type Context = { params: Promise<{ id: string }> };

/** One of the caller's chats with its messages (404 for anyone else's). */
export const GET = route(async (_request: Request, context: Context) => {
  const user = await requireUser();
  return Response.json(openChat(getDb(), user, await idParam(context)));
});

/** Rename. */
export const PATCH = route(async (request: Request, context: Context) => {
  const body = await parseBody(request, chatTitleSchema);
  const user = await requireUser();
  return Response.json(renameOwnChat(getDb(), user, await idParam(context), body.title));
});

/** Delete with all messages. */
export const DELETE = route(async (_request: Request, context: Context) => {
  const user = await requireUser();
  deleteOwnChat(getDb(), user, await idParam(context));
  return new Response(null, { status: 204 });
});
