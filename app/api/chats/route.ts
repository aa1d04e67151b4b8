import { z } from "zod";
import { getDb } from "@/db/client";
import { requireUser } from "@/lib/auth/session";
import { route } from "@/lib/http";
import { parseBody } from "@/lib/host/server-api";
import { listChats, startChat } from "@/lib/agent/chat-service";

const createBody = z.object({ title: z.string().trim().max(200).optional() });

/** The caller's chats, most recent first. */
export const GET = route(async () => {
  const user = await requireUser();
  return Response.json({ chats: listChats(getDb(), user) });
});

/** Start a new chat. */
export const POST = route(async (request: Request) => {
  const body = await parseBody(request, createBody);
  const user = await requireUser();
  return Response.json(startChat(getDb(), user, body.title), { status: 201 });
});
