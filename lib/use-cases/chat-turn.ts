/**
 * One agent turn for `POST /api/chat`: the caller's chat in this workspace, their model (or the
 * workspace default), the workspace's servers as their own definitions, and a turn that keeps running
 * when its request ends (the page was left or reloaded) and stops on Stop or when the caller loses
 * access to the workspace. Readers join and leave through the turn buffer (docs/chat.md): this
 * process's memory in single-node mode, the coordination in cluster mode (any replica resumes or
 * stops a turn running on another; lib/runtime/shared-turns.ts).
 */
import "server-only";
import { createUIMessageStreamResponse, type UIMessageChunk } from "ai";
import { getDb } from "../../db/client";
import type { ChatRequest } from "../agent/chat-request";
import { requireOwnChat } from "../agent/chat-service";
import { prepareTurn } from "../agent/prepare-turn";
import { messageToChunks } from "../agent/replay-chunks";
import { runChat } from "../agent/run-chat";
import { getToolSearchSettings } from "../agent/tool-search-settings";
import { TurnBuffer } from "../agent/turn-buffer";
import { userLanguageModel } from "../models/user-model";
import { AppError } from "../errors";
import { acquireTurn, releasedAtEnd } from "../quotas";
import { workspaceModelChoice } from "../models/workspace-default";
import { appPool, workspaceServerDefinitions } from "../runtime/engine";
import { interactionLog } from "../runtime/interactions";
import { sharedTurns, sharedTurnsOn } from "../runtime/shared-turns";
import { endWithStream, trackTurn } from "../runtime/turns";
import { assertWithinBudget, budgetWarningNotice } from "../usage/budgets";

export { chatRequestSchema } from "../agent/chat-request";

const slot = globalThis as { __switchboardTurnBuffer?: TurnBuffer<UIMessageChunk> };
// One buffer per process, surviving dev-mode module reloads like the engine does (single-node mode).
slot.__switchboardTurnBuffer ??= new TurnBuffer<UIMessageChunk>();
const buffer = slot.__switchboardTurnBuffer;

/** The value of a settled promise, or its reason thrown. */
function settledValue<T>(result: PromiseSettledResult<T>): T {
  if (result.status === "rejected") throw result.reason;
  return result.value;
}

/** Run one turn and answer with the UI message stream (a live reader of the turn's buffer). */
export async function chatTurnResponse(caller: { id: string; workspaceId: string }, body: ChatRequest): Promise<Response> {
  const db = getDb();
  // The reads a turn needs before it starts do not depend on each other, and on Postgres each is a
  // round trip before the first token: they run side by side. They only read, and the answer is
  // judged in the order they were written in (not your chat, then no model, then the budget), so a
  // refusal is the same as when they ran one after another.
  const [own, chosen, budget, definitions, toolSearch] = await Promise.allSettled([
    requireOwnChat(db, caller.id, body.chatId, caller.workspaceId),
    userLanguageModel(db, caller.id, workspaceModelChoice(db, caller.workspaceId)),
    assertWithinBudget(db, caller.id, caller.workspaceId),
    workspaceServerDefinitions(db, caller),
    getToolSearchSettings(db, caller.workspaceId),
  ]);
  settledValue(own);
  const model = settledValue(chosen);
  if (!model.ok) throw new AppError("chat.no_model", model.reason);
  // Past a monthly budget a new turn is refused (429); at 80% it runs with a warning (docs/usage.md#budgets).
  const budgetWarning = budgetWarningNotice(settledValue(budget));
  const servers = settledValue(definitions);
  const toolSearchSettings = settledValue(toolSearch);
  const pool = appPool();
  // One answer per chat: a new message stops the one still running before history is read (in
  // cluster mode wherever it runs, waiting briefly for it to be saved as stopped).
  if (sharedTurnsOn()) await sharedTurns().stop(body.chatId, caller.id);
  else buffer.stop(body.chatId, caller.id);
  // The per-user quota of answers running at once (docs/limits.md): released when the stream ends.
  const releaseQuota = await acquireTurn(caller.id);
  const turn = trackTurn(caller.id, caller.workspaceId);
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
      followInteractions: (listener) => interactionLog().subscribe(caller.id, listener),
      budgetWarning,
      toolSearchSettings,
    });
    // A continuation (after approvals) streams only what it adds to the last message: a reader who
    // rejoins gets that message first, rebuilt as chunks.
    const continued = messages.at(-1)?.role === "assistant" ? messageToChunks(messages.at(-1)!) : [];
    const source = releasedAtEnd(endWithStream(stream, turn), releaseQuota);
    const live = sharedTurnsOn()
      ? await sharedTurns().start(body.chatId, caller.id, source, turn.stop, continued)
      : buffer.start(body.chatId, caller.id, source, turn.stop, continued);
    return createUIMessageStreamResponse({ stream: live });
  } catch (error) {
    releaseQuota();
    turn.end();
    throw error;
  }
}

/** The running turn of the caller's chat replayed from its start and followed live (from any replica); 204 when none runs. */
export async function resumeChatTurn(caller: { id: string; workspaceId: string }, chatId: string): Promise<Response> {
  await requireOwnChat(getDb(), caller.id, chatId, caller.workspaceId);
  const stream = sharedTurnsOn() ? await sharedTurns().resume(chatId, caller.id) : buffer.resume(chatId, caller.id);
  return stream ? createUIMessageStreamResponse({ stream }) : new Response(null, { status: 204 });
}

/** Stop the running turn of the caller's chat (Stop from any page, on any replica) and answer once it ended and saved its answer (at most 3 s); 204 whether or not one ran. */
export async function stopChatTurn(caller: { id: string; workspaceId: string }, chatId: string): Promise<Response> {
  await requireOwnChat(getDb(), caller.id, chatId, caller.workspaceId);
  if (sharedTurnsOn()) await sharedTurns().stop(chatId, caller.id);
  else await buffer.stopAndWait(chatId, caller.id);
  return new Response(null, { status: 204 });
}
