/**
 * What servers wait on a user for (elicitations, sampling reviews), listed and answered by that
 * user only: another user's request id is a 404.
 */
import "server-only";
import { AppError } from "../errors";
import { elicitationBroker } from "../runtime/elicitations";
import { samplingHost, type SamplingReviewAnswer } from "../runtime/sampling";

/** Every pending request of the user. */
export function pendingForUser(userId: string) {
  return { elicitations: elicitationBroker().list(userId), sampling: samplingHost().reviews.list(userId) };
}

/** Answer one of the user's elicitations (accept with content, decline, cancel), or 404. */
export function answerElicitation(
  userId: string,
  id: string,
  body: { action: "accept" | "decline" | "cancel"; content?: Record<string, string | number | boolean | string[]> },
): void {
  const result = body.action === "accept" ? { action: "accept" as const, content: body.content ?? {} } : { action: body.action };
  if (!elicitationBroker().answer(userId, id, result)) throw new AppError("pending.not_found", "No such pending request.");
}

/** Answer one of the user's sampling reviews, or 404. */
export function answerSamplingReview(userId: string, id: string, answer: SamplingReviewAnswer): void {
  if (!samplingHost().reviews.answer(userId, id, answer)) throw new AppError("pending.not_found", "No such pending review.");
}
