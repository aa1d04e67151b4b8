/**
 * The first half of a chat turn: load the stored conversation and add what the request brings —
 * a new user message (attachments resolved on the server) or answers to pending approvals — and
 * save it before the model runs, so a crash or a stop never loses the user's input.
 */
import type { Db } from "../../db/client";
import { newId } from "../../db/ids";
import { recordAudit } from "../../db/queries/audit";
import { touchChat } from "../../db/queries/chats";
import { deleteMessagesOfChat, listMessagesByChat, saveMessage } from "../../db/queries/messages";
import type { ServerDefinition } from "../mcp";
import { AppError } from "../errors";
import { takeAppContextParts } from "./app-context";
import { applyApprovalDecisions, denyPendingApprovals } from "./approvals";
import { resolvePrompt, resolveResource, type AttachmentPool } from "./attachments";
import type { ChatMessage } from "../domain/chat-message";
import type { ChatRequest, UserTurn } from "./chat-request";
import { titleFrom } from "./message-parts";

/** What preparing a turn needs. */
export interface PrepareTurnOptions {
  db: Db;
  pool: AttachmentPool;
  user: { id: string; workspaceId?: string };
  chatId: string;
  servers: ServerDefinition[];
  request: ChatRequest;
  signal?: AbortSignal;
}

/** Build the stored user message for a turn. */
async function userMessage(options: PrepareTurnOptions, turn: UserTurn): Promise<ChatMessage> {
  const { pool, user, servers, signal } = options;
  const parts: ChatMessage["parts"] = [];
  for (const ref of turn.resources) {
    parts.push({ type: "data-resource", data: await resolveResource(pool, user.id, servers, ref, signal) });
  }
  if (turn.prompt) {
    // The prompt is still fetched: it checks the server is the caller's and the prompt exists.
    const rendered = await resolvePrompt(pool, user.id, servers, turn.prompt, signal);
    const edited = turn.prompt.messages && JSON.stringify(turn.prompt.messages) !== JSON.stringify(rendered.messages);
    parts.push({ type: "data-prompt", data: edited ? { ...rendered, messages: turn.prompt.messages!, edited: true } : rendered });
  }
  // What MCP Apps asked to tell the model since the last message (docs/mcp-apps.md#model-context).
  parts.push(...(await takeAppContextParts(options.db, options.chatId)));
  if (turn.text.trim()) parts.push({ type: "text", text: turn.text });
  // The id is the server's: client ids are never trusted as primary keys.
  return { id: newId(), role: "user", parts };
}

/**
 * Drop the chat's tail for a retry (everything after the last user message) or an edit (that
 * message too); returns what is left.
 */
async function dropTail(db: Db, chatId: string, history: ChatMessage[], includingUser: boolean): Promise<ChatMessage[]> {
  const lastUser = history.findLastIndex((m) => m.role === "user");
  if (lastUser === -1) throw new AppError("request.invalid", "There is no message to answer again.");
  const keep = includingUser ? lastUser : lastUser + 1;
  await deleteMessagesOfChat(
    db,
    chatId,
    history.slice(keep).map((m) => m.id),
  );
  return history.slice(0, keep);
}

/** Apply the request to the stored chat; returns the whole conversation for the model run. */
export async function prepareTurn(options: PrepareTurnOptions): Promise<ChatMessage[]> {
  const { db, chatId, request } = options;
  if (request.regenerate) return await dropTail(db, chatId, await listMessagesByChat(db, chatId), false);
  if (request.approvals?.length) return await applyApprovals(options, await listMessagesByChat(db, chatId));
  if (request.replaceLast) {
    // The tail is dropped first: an edit of a chat with nothing to replace saves nothing.
    const kept = await dropTail(db, chatId, await listMessagesByChat(db, chatId), true);
    return await addUserMessage(options, Promise.resolve(kept));
  }
  // A new message does not depend on the stored history: it is built while the history is read (on
  // Postgres one round trip less before the first token).
  return await addUserMessage(options, listMessagesByChat(db, chatId));
}

/** Record the answers to pending approvals on the chat's last (assistant) message. */
async function applyApprovals(options: PrepareTurnOptions, history: ChatMessage[]): Promise<ChatMessage[]> {
  const { db, chatId, request, user } = options;
  const last = history.at(-1);
  if (last?.role !== "assistant") throw new AppError("chat.approval_not_pending", "There is no tool call waiting for approval.");
  const { message, applied, decisions } = applyApprovalDecisions(last, request.approvals!);
  if (applied === 0) throw new AppError("chat.approval_not_pending", "These tool calls are no longer waiting for approval.");
  await saveMessage(db, chatId, message);
  for (const d of decisions) {
    await recordAudit(db, {
      actorId: user.id,
      workspaceId: user.workspaceId ?? null,
      action: d.approved ? "tool.call_approved" : "tool.call_denied",
      target: d.serverId ? `server:${d.serverId}` : null,
      detail: { chatId, tool: d.toolName, edited: d.edited },
    });
  }
  await touchChat(db, { id: chatId, ownerId: user.id });
  return [...history.slice(0, -1), message];
}

/**
 * Save the request's new user message (with the chat's title and time) and return the conversation
 * ending with it. The message does not depend on the stored history (`stored`, possibly still being
 * read): it is built while the history is read, and saved after, so the read never holds it.
 */
async function addUserMessage(options: PrepareTurnOptions, stored: Promise<ChatMessage[]>): Promise<ChatMessage[]> {
  const { db, chatId, request, user } = options;
  const [history, turn] = await Promise.all([stored, userMessage(options, request.message!)]);
  const messages = [...history];
  const last = messages.at(-1);
  if (last?.role === "assistant") {
    const { message, changed } = denyPendingApprovals(last);
    if (changed) {
      await saveMessage(db, chatId, message);
      messages[messages.length - 1] = message;
      await recordAudit(db, {
        actorId: user.id,
        workspaceId: user.workspaceId ?? null,
        action: "tool.call_skipped",
        target: null,
        detail: { chatId, reason: "new message sent while approvals were pending" },
      });
    }
  }
  // The message and the chat's title and time are separate rows: written side by side (one round
  // trip less before the first token on Postgres).
  await Promise.all([saveMessage(db, chatId, turn), touchChat(db, { id: chatId, ownerId: user.id }, titleFrom(turn))]);
  return [...messages, turn];
}
