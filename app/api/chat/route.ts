import { createUIMessageStreamResponse } from "ai";
import { getDb } from "@/db/client";
import { requireUser } from "@/lib/auth/session";
import { AppError } from "@/lib/errors";
import { route } from "@/lib/http";
import { appPool, workspaceServerDefinitions } from "@/lib/host/engine";
import { parseBody } from "@/lib/host/server-api";
import { chatRequestSchema } from "@/lib/agent/chat-request";
import { requireOwnChat } from "@/lib/agent/chat-service";
import { prepareTurn } from "@/lib/agent/prepare-turn";
import { runChat } from "@/lib/agent/run-chat";
import { userLanguageModel } from "@/lib/agent/user-model";
import { acquireTurn, releasedAtEnd } from "@/lib/quotas";

// The agent may run for minutes (tool calls); never cache, never prerender.
export const dynamic = "force-dynamic";

/**
 * One agent turn: a new user message or answers to pending approvals. History, tools and tool
 * results come from the server (the chat's stored messages and the user's workspace servers).
 */
export const POST = route(async (request: Request) => {
  const user = await requireUser();
  const body = await parseBody(request, chatRequestSchema);
  const db = getDb();
  requireOwnChat(db, user.id, body.chatId);
  const model = userLanguageModel(db, user.id);
  if (!model.ok) throw new AppError("conflict", model.reason);
  const pool = appPool();
  const servers = workspaceServerDefinitions(db, user);
  const release = acquireTurn(user.id);
  try {
    const messages = await prepareTurn({ db, pool, user, chatId: body.chatId, servers, request: body, signal: request.signal });
    const stream = await runChat({
      db,
      pool,
      model: model.model,
      user,
      chatId: body.chatId,
      servers,
      messages,
      signal: request.signal,
      secrets: model.secrets,
    });
    return createUIMessageStreamResponse({ stream: releasedAtEnd(stream, release) });
  } catch (error) {
    release();
    throw error;
  }
});
