import { chats, newChat } from "@/lib/use-cases/chats";
import { requireWorkspace } from "@/lib/use-cases/caller";
import { parseJson, route } from "@/lib/http";
import { createChatBody } from "./schema";

/** The caller's chats in the workspace, most recent first (chats are private to their author). */
export const GET = route(async (request: Request) => {
  const caller = await requireWorkspace(request);
  return Response.json({ chats: await chats(caller) });
});

/** Start a new chat in the workspace. */
export const POST = route(async (request: Request) => {
  const caller = await requireWorkspace(request);
  const body = await parseJson(request, createChatBody);
  return Response.json(await newChat(caller, body.title), { status: 201 });
});
