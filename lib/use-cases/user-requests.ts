/**
 * What servers wait on a user for (elicitations, sampling reviews), listed and answered by that
 * user only, from any replica (lib/runtime/question-desk.ts): another user's question id is a 404.
 */
import "server-only";
import type { PendingElicitationView } from "../runtime/elicitations";
import { questionDesk } from "../runtime/question-desk";
import type { WithdrawnQuestion } from "../runtime/question-notices";
import type { SamplingReviewAnswer, SamplingReviewView } from "../runtime/sampling";

/** Every question waiting for the user, and those withdrawn because the connection that asked is gone. */
export async function pendingForUser(
  userId: string,
): Promise<{ elicitations: PendingElicitationView[]; sampling: SamplingReviewView[]; withdrawn: WithdrawnQuestion[] }> {
  const { questions, withdrawn } = await questionDesk().list(userId);
  return {
    elicitations: questions.filter((q) => q.kind === "elicitation").map((q) => q.view as unknown as PendingElicitationView),
    sampling: questions.filter((q) => q.kind === "sampling").map((q) => q.view as unknown as SamplingReviewView),
    withdrawn,
  };
}

/** Answer one of the user's elicitations (accept with content, decline, cancel); 404 or 409 when it no longer waits. */
export async function answerElicitation(
  userId: string,
  id: string,
  body: { action: "accept" | "decline" | "cancel"; content?: Record<string, string | number | boolean | string[]> },
): Promise<void> {
  const result = body.action === "accept" ? { action: "accept" as const, content: body.content ?? {} } : { action: body.action };
  await questionDesk().answer(userId, "elicitation", id, result);
}

/** Answer one of the user's sampling reviews; 404 or 409 when it no longer waits. */
export async function answerSamplingReview(userId: string, id: string, answer: SamplingReviewAnswer): Promise<void> {
  await questionDesk().answer(userId, "sampling", id, answer);
}
