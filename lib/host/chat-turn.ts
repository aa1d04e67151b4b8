/**
 * One agent turn for `POST /api/chat`: the caller's chat in this workspace, their model (or the
 * workspace default), the workspace's servers as their own definitions, and a turn that stops
 * when the request ends or the caller loses access to the workspace.
 */
import "server-only";
import { createUIMessageStreamResponse } from "ai";
import { getDb } from "../../db/client";
import type { ChatRequest } from "../agent/chat-request";
import { requireOwnChat } from "../agent/chat-service";
import { prepareTurn } from "../agent/prepare-turn";
import { runChat } from "../agent/run-chat";
import { userLanguageModel } from "../agent/user-model";
import { AppError } from "../errors";
import { acquireTurn, releasedAtEnd } from "../quotas";
import { workspaceModelChoice } from "../workspaces/default-model";
import { appPool, workspaceServerDefinitions } from "./engine";
import { endWithStream, trackTurn } from "./turns";

/** Run one turn and answer with the UI message stream. */
export async function chatTurnResponse(
  caller: { id: string; workspaceId: string },
  body: ChatRequest,
  requestSignal: AbortSignal,
): Promise<Response> {
  const db = getDb();
  requireOwnChat(db, caller.id, body.chatId, caller.workspaceId);
  const model = userLanguageModel(db, caller.id, workspaceModelChoice(db, caller.workspaceId));
  if (!model.ok) throw new AppError("chat.no_model", model.reason);
  const pool = appPool();
  const servers = workspaceServerDefinitions(db, caller);
  // The per-user quota of answers running at once (docs/limits.md): released when the stream ends.
  const releaseQuota = acquireTurn(caller.id);
  const turn = trackTurn(caller.id, caller.workspaceId, requestSignal);
  try {
    const messages = await prepareTurn({ db, pool, user: caller, chatId: body.chatId, servers, request: body, signal: turn.signal });
    const stream = await runChat({
      db,
      pool,
      model: model.model,
      user: caller,
      chatId: body.chatId,
      servers,
      messages,
      signal: turn.signal,
      secrets: model.secrets,
    });
    return createUIMessageStreamResponse({ stream: releasedAtEnd(endWithStream(stream, turn), releaseQuota) });
  } catch (error) {
    releaseQuota();
    turn.end();
    throw error;
  }
}
