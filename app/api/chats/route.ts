import { getDb } from "@/db/client";
import { listChats, startChat } from "@/lib/agent/chat-service";
import { requireWorkspace } from "@/lib/auth/workspace";
import { parseJson, route } from "@/lib/http";
import { createChatBody } from "./schema";

/** The caller's chats in the workspace, most recent first (chats are private to their author). */
export const GET = route(async (request: Request) => {
  const caller = await requireWorkspace(request);
  return Response.json({ chats: listChats(getDb(), caller) });
});

/** Start a new chat in the workspace. */
export const POST = route(async (request: Request) => {
  const caller = await requireWorkspace(request);
  const body = await parseJson(request, createChatBody);
  return Response.json(startChat(getDb(), caller, body.title), { status: 201 });
});
