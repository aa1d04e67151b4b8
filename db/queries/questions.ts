/**
 * Questions waiting for a user (db/tables-questions.ts). Each state change is one conditional
 * statement from `pending`, so of two answers (or an answer and a withdrawal) racing on any
 * replicas exactly one wins, on either database. The question and the answer are sealed here
 * (db/secrets.ts) and opened only for their user's listing and for the replica that holds the request.
 */
import { and, eq, gt, inArray, lt, ne, type SQL } from "drizzle-orm";
import type { Db } from "../client";
import { all, exec, one } from "../exec";
import { mcpServers, pendingQuestions } from "../schema";
import { openJson, sealJson } from "../secrets";
import { gated } from "../transaction";

/** What a question is: a server's elicitation, or one step of a sampling review. */
export type QuestionKind = "elicitation" | "sampling";
/** Where a question stands. */
export type QuestionState = "pending" | "answered" | "withdrawn" | "expired";
/**
 * Why a question was withdrawn: its server cancelled the request, the server was removed or the
 * user lost access to it, or the replica holding the request died or stopped.
 */
export type WithdrawReason = "cancelled" | "released" | "replica_gone" | "replica_stopped";

/** How long settled and expired rows are kept (an answer racing a late one still hears why). */
export const QUESTION_KEEP_MS = 60 * 60_000;

/** A question as the replica that holds its request writes it. */
export interface NewQuestion {
  id: string;
  userId: string;
  serverId: string;
  kind: QuestionKind;
  /** What the user is shown (sealed before it is stored). */
  payload: unknown;
  replica: string;
  expiresAt: Date;
}

/** A question's state, without what it asks. */
export interface QuestionHead {
  id: string;
  userId: string;
  kind: QuestionKind;
  replica: string;
  state: QuestionState;
  reason: string | null;
  expiresAt: Date;
}

/** A question with what it asks, opened for its user. */
export interface ListedQuestion extends QuestionHead {
  payload: unknown;
  createdAt: Date;
  settledAt: Date | null;
}

const head = {
  id: pendingQuestions.id,
  userId: pendingQuestions.userId,
  kind: pendingQuestions.kind,
  replica: pendingQuestions.replica,
  state: pendingQuestions.state,
  reason: pendingQuestions.reason,
  expiresAt: pendingQuestions.expiresAt,
};

/** Store a new pending question (its workspace is its server's), dropping rows kept long enough. */
export async function insertQuestion(db: Db, question: NewQuestion): Promise<void> {
  return gated(db, async () => {
    const now = new Date();
    await exec(db.delete(pendingQuestions).where(lt(pendingQuestions.expiresAt, new Date(now.getTime() - QUESTION_KEEP_MS))));
    const server = await one(
      db.select({ workspaceId: mcpServers.workspaceId }).from(mcpServers).where(eq(mcpServers.id, question.serverId)),
    );
    await exec(
      db.insert(pendingQuestions).values({
        id: question.id,
        userId: question.userId,
        workspaceId: server?.workspaceId ?? null,
        serverId: question.serverId,
        kind: question.kind,
        payloadEnc: sealJson(question.payload),
        replica: question.replica,
        state: "pending",
        expiresAt: question.expiresAt,
      }),
    );
  });
}

/**
 * `userId`'s questions still waiting (not expired), and those withdrawn since `withdrawnSince` for
 * one of `notify` reasons, oldest first, opened.
 */
export async function listQuestions(db: Db, userId: string, withdrawnSince: Date, notify: WithdrawReason[]): Promise<ListedQuestion[]> {
  return gated(db, async () => {
    const rows = await all(
      db
        .select({
          ...head,
          payloadEnc: pendingQuestions.payloadEnc,
          createdAt: pendingQuestions.createdAt,
          settledAt: pendingQuestions.settledAt,
        })
        .from(pendingQuestions)
        .where(and(eq(pendingQuestions.userId, userId), inArray(pendingQuestions.state, ["pending", "withdrawn"])))
        .orderBy(pendingQuestions.createdAt),
    );
    const now = Date.now();
    return rows
      .filter((row) =>
        row.state === "pending"
          ? row.expiresAt.getTime() > now
          : notify.includes(row.reason as WithdrawReason) && (row.settledAt?.getTime() ?? 0) >= withdrawnSince.getTime(),
      )
      .map(({ payloadEnc, ...row }) => ({
        ...row,
        state: row.state as QuestionState,
        kind: row.kind as QuestionKind,
        payload: openJson(payloadEnc),
      }));
  });
}

/** One question's state, or null when there is no such row. */
export async function questionHead(db: Db, id: string): Promise<QuestionHead | null> {
  return gated(db, async () => {
    const row = await one(db.select(head).from(pendingQuestions).where(eq(pendingQuestions.id, id)));
    return row ? { ...row, state: row.state as QuestionState, kind: row.kind as QuestionKind } : null;
  });
}

/** The states of the questions `ids` (the holder's look at what was settled elsewhere). */
export async function questionHeads(db: Db, ids: string[]): Promise<QuestionHead[]> {
  if (ids.length === 0) return [];
  return gated(db, async () => {
    const rows = await all(db.select(head).from(pendingQuestions).where(inArray(pendingQuestions.id, ids)));
    return rows.map((row) => ({ ...row, state: row.state as QuestionState, kind: row.kind as QuestionKind }));
  });
}

// Pending and not expired: the only rows a state change applies to.
const open = (now: Date) => and(eq(pendingQuestions.state, "pending"), gt(pendingQuestions.expiresAt, now));

/** Record `answer` (sealed) for a pending question; false when it is no longer pending (one answer wins). */
export async function answerQuestion(db: Db, id: string, answer: unknown): Promise<boolean> {
  return gated(db, async () => {
    const now = new Date();
    const changed = await exec(
      db
        .update(pendingQuestions)
        .set({ state: "answered", answerEnc: sealJson(answer), settledAt: now })
        .where(and(eq(pendingQuestions.id, id), open(now))),
    );
    return changed === 1;
  });
}

/** The answer of an answered question, removed from the row as it is read (the holder takes it once). */
export async function takeAnswer<T>(db: Db, id: string): Promise<T | null> {
  return gated(db, async () => {
    const row = await one(
      db
        .select({ answerEnc: pendingQuestions.answerEnc })
        .from(pendingQuestions)
        .where(and(eq(pendingQuestions.id, id), eq(pendingQuestions.state, "answered"))),
    );
    if (!row?.answerEnc) return null;
    await exec(db.update(pendingQuestions).set({ answerEnc: null }).where(eq(pendingQuestions.id, id)));
    return openJson<T>(row.answerEnc);
  });
}

/**
 * Close a question its holder settled with an answer: an answer given on the holder itself (a
 * pending row) is marked answered, and no answer stays stored once delivered.
 */
export async function finishAnswered(db: Db, id: string): Promise<void> {
  return gated(db, async () => {
    await exec(
      db
        .update(pendingQuestions)
        .set({ state: "answered", settledAt: new Date() })
        .where(and(eq(pendingQuestions.id, id), eq(pendingQuestions.state, "pending"))),
    );
    await exec(db.update(pendingQuestions).set({ answerEnc: null }).where(eq(pendingQuestions.id, id)));
  });
}

/**
 * Settle a pending question as withdrawn (with its reason) or expired; false when it was settled
 * already. An answered question is left alone.
 */
export async function settleQuestion(db: Db, id: string, state: "withdrawn" | "expired", reason?: WithdrawReason): Promise<boolean> {
  return gated(db, async () => {
    const now = new Date();
    const changed = await exec(
      db
        .update(pendingQuestions)
        .set({ state, reason: reason ?? null, settledAt: now })
        .where(and(eq(pendingQuestions.id, id), eq(pendingQuestions.state, "pending"))),
    );
    return changed === 1;
  });
}

/** Which pending questions `withdrawQuestions` takes; every given condition must hold. */
export interface QuestionScope {
  userId?: string;
  serverIds?: string[];
  /** Held by this replica. */
  replica?: string;
  /** Held by any replica but this one. */
  notReplica?: string;
}

/** Withdraw every pending question in `scope` for `reason`; answers their ids and holders. */
export async function withdrawQuestions(db: Db, scope: QuestionScope, reason: WithdrawReason): Promise<{ id: string; replica: string }[]> {
  if (scope.serverIds?.length === 0) return [];
  return gated(db, async () => {
    const conditions: SQL[] = [eq(pendingQuestions.state, "pending")];
    if (scope.userId !== undefined) conditions.push(eq(pendingQuestions.userId, scope.userId));
    if (scope.serverIds !== undefined) conditions.push(inArray(pendingQuestions.serverId, scope.serverIds));
    if (scope.replica !== undefined) conditions.push(eq(pendingQuestions.replica, scope.replica));
    if (scope.notReplica !== undefined) conditions.push(ne(pendingQuestions.replica, scope.notReplica));
    return await all(
      db
        .update(pendingQuestions)
        .set({ state: "withdrawn", reason, settledAt: new Date() })
        .where(and(...conditions))
        .returning({ id: pendingQuestions.id, replica: pendingQuestions.replica }),
    );
  });
}
