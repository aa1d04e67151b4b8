/**
 * Losing access withdraws what was waiting for the person: their pending elicitations and
 * sampling reviews for the servers they lost (the server gets `cancel`/deny, and a later answer
 * to the old id is refused, so nothing typed into it is ever delivered), and the tool-call
 * approvals still open in their chats of the workspace (denied, so a later approval cannot run
 * the call once access is back). Used by the access effects of member removal and disabled
 * accounts (docs/limits.md#prompt-release).
 */
import type { Db } from "../../db/client";
import { listChatsByOwner } from "../../db/queries/chats";
import { listMessagesByChat, saveMessage } from "../../db/queries/messages";
import type { ChatMessage } from "../domain/chat-message";
import type { AccessEffects } from "../domain/access-effects";
import { elicitationBroker } from "../runtime/elicitations";
import { redact } from "../redact";
import { questionDesk } from "../runtime/question-desk";
import { samplingHost } from "../runtime/sampling";

/** The reason kept on an approval withdrawn because its user lost access (the card shows it). */
export const WITHDRAWN_ACCESS_ENDED = "Withdrawn: access to the workspace ended before this call was approved.";

/**
 * Withdraw pending elicitations and sampling reviews of `userId` (every user's when null) for
 * `serverIds` (every server when omitted): this replica's at once, then the rows of every replica
 * (their holders settle them by message or sweep: lib/runtime/question-desk.ts). Returns how many
 * were withdrawn.
 */
export async function withdrawServerRequests(userId: string | null, serverIds?: string[]): Promise<number> {
  const servers = serverIds ? new Set(serverIds) : null;
  const match = (view: { serverId: string }, owner: string) =>
    (userId === null || owner === userId) && (servers === null || servers.has(view.serverId));
  const broker = elicitationBroker();
  // Every server the user has a request from, when no list is given (a disabled account).
  const elicitingServers = servers ?? new Set(userId === null ? [] : broker.list(userId).map((view) => view.serverId));
  let count = 0;
  for (const serverId of elicitingServers) count += broker.withdrawServer(serverId, userId ?? undefined);
  count += samplingHost().reviews.withdraw(match);
  // Those held on other replicas (this replica's were settled just above). A failure is logged: the
  // connections close all the same.
  if (userId === null && serverIds === undefined) return count;
  const scope = { ...(userId === null ? {} : { userId }), ...(serverIds ? { serverIds } : {}) };
  try {
    return count + (await questionDesk().withdraw(scope, "released"));
  } catch (error) {
    console.warn("[switchboard] withdrawing questions on other replicas failed:", redact(String(error)));
    return count;
  }
}

/**
 * Deny the approvals still pending in `userId`'s chats of `workspaceId` (of every workspace when
 * null). Only the last message of a chat can hold open approvals. Returns how many were denied.
 */
export async function withdrawApprovals(db: Db, userId: string, workspaceId: string | null): Promise<number> {
  let denied = 0;
  for (const { id } of (await listChatsByOwner(db, userId)).filter((chat) => workspaceId === null || chat.workspaceId === workspaceId)) {
    const last = (await listMessagesByChat(db, id)).at(-1);
    if (last?.role !== "assistant") continue;
    const { message, count } = denyOpenApprovals(last);
    if (count === 0) continue;
    await saveMessage(db, id, message);
    denied += count;
  }
  return denied;
}

function denyOpenApprovals(message: ChatMessage): { message: ChatMessage; count: number } {
  let count = 0;
  const parts = message.parts.map((part) => {
    if (part.type !== "dynamic-tool" || part.state !== "approval-requested") return part;
    count++;
    return {
      ...part,
      state: "output-denied" as const,
      approval: { ...part.approval, approved: false as const, reason: WITHDRAWN_ACCESS_ENDED },
    };
  });
  return { message: { ...message, parts }, count };
}

/**
 * `effects` with the withdrawals in front: closing a user's connections first withdraws their
 * pending server requests for those servers (before the close, so no answer slips in between),
 * and stopping a user's turns denies their open approvals in that workspace.
 */
export function withdrawingEffects(db: Db, effects: AccessEffects): AccessEffects {
  return {
    async closeConnections(userId, serverIds) {
      await withdrawServerRequests(userId, serverIds);
      await effects.closeConnections(userId, serverIds);
    },
    forgetTokens: (userId, servers) => effects.forgetTokens(userId, servers),
    async stopTurns(userId, workspaceId) {
      await effects.stopTurns(userId, workspaceId);
      if (userId !== null) await withdrawApprovals(db, userId, workspaceId);
    },
  };
}
