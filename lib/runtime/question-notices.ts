/**
 * What the user is told about a question that no longer waits (lib/runtime/question-desk.ts): why it
 * was withdrawn, and the errors answering it meets.
 */
import type { QuestionHead, QuestionKind, WithdrawReason } from "../../db/queries/questions";
import { AppError } from "../errors";

/** A question withdrawn because the connection that asked is gone, so the tab showing it can say so. */
export interface WithdrawnQuestion {
  id: string;
  kind: QuestionKind;
  serverName: string;
  message: string;
}

/** Seconds a client waits before answering again while Redis cannot be reached. */
const RETRY_SECONDS = 3;

/** Withdrawals the user hears of: the question did not end by anything they or the server did. */
// Withdrawals the user hears of: the question did not end by anything they or the server did.
export const NOTIFY: WithdrawReason[] = ["replica_gone", "replica_stopped"];

const WITHDRAWN_MESSAGE: Record<WithdrawReason, string> = {
  cancelled: "The server stopped waiting for this answer.",
  released: "This question was withdrawn: its server was removed or changed, or your access to it ended.",
  replica_gone: "The server connection that asked this is gone (the app replica holding it stopped answering). Ask again.",
  replica_stopped: "The server connection that asked this was closed (the app replica holding it restarted or shut down). Ask again.",
};

/** The user-facing reason a question was withdrawn. */
export function withdrawnMessage(reason: string | null): string {
  return WITHDRAWN_MESSAGE[(reason ?? "cancelled") as WithdrawReason] ?? WITHDRAWN_MESSAGE.cancelled;
}

/** The 503 for an answer that cannot reach the replica holding the question. */
export function clusterUnavailable(): AppError {
  return new AppError(
    "cluster.unavailable",
    "The cluster's shared store (Redis) cannot be reached, so the answer cannot be sent to the replica that asked. Try again in a few seconds.",
    undefined,
    RETRY_SECONDS,
  );
}

/** The 404 for a question that is not the caller's or does not exist. */
export function notFound(): AppError {
  return new AppError("pending.not_found", "No such pending question.");
}

/** The error for answering a question that no longer waits. */
export function settledError(row: QuestionHead): AppError {
  if (row.state === "answered") return new AppError("pending.answered", "This question was answered already (in another tab or window).");
  if (row.state === "withdrawn") return new AppError("pending.withdrawn", withdrawnMessage(row.reason));
  return notFound();
}
