/**
 * Keeping the answer of a turn whose replica died (docs/chat.md#runs-that-survive-navigation): the
 * answer is rebuilt from the UI chunks the turn had written to the shared list — more than the
 * database holds, which is saved after each step — and stored marked `interrupted`, so the page
 * shows what was produced and offers Retry instead of waiting for an end that will never come.
 */
import { readUIMessageStream, type UIMessageChunk } from "ai";
import type { Db } from "../../db/client";
import { listMessagesByChat, saveMessage } from "../../db/queries/messages";
import { redact } from "../redact";
import { type ChatMessage, metadataOf } from "../domain/chat-message";

/** The message `chunks` build (the replay's prefix included), or null when they start none. */
export async function messageFromChunks(chunks: UIMessageChunk[]): Promise<ChatMessage | null> {
  if (!chunks.some((chunk) => chunk.type === "start")) return null;
  let message: ChatMessage | null = null;
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  // A chunk the reader cannot place (a delta whose start was never written) is skipped, not fatal.
  for await (const snapshot of readUIMessageStream<ChatMessage>({ stream, onError: () => {} })) message = snapshot;
  return message?.id ? message : null;
}

/** `message` marked interrupted (the transcript says so; Retry answers again). */
export function markInterrupted(message: ChatMessage): ChatMessage {
  return { ...message, metadata: { ...metadataOf(message), interrupted: true } };
}

/**
 * Store the answer of an interrupted turn of `chatId`. `complete` says whether `chunks` hold the
 * whole turn so far; past the byte cap they do not, and the stored answer (its last step) is
 * marked instead when there is one. Returns the message stored, or null when there was nothing
 * (no part beyond a step's start).
 */
export async function saveInterruptedAnswer(
  db: Db,
  chatId: string,
  chunks: UIMessageChunk[],
  complete: boolean,
): Promise<ChatMessage | null> {
  const rebuilt = await messageFromChunks(chunks);
  let answer = rebuilt;
  if (!complete && rebuilt) {
    const stored = (await listMessagesByChat(db, chatId)).find((m) => m.id === rebuilt.id);
    if (stored) answer = stored;
  }
  // An answer that had produced nothing yet is not stored: the question stays, to be sent again.
  if (answer?.role !== "assistant" || !answer.parts.some((part) => part.type !== "step-start")) return null;
  const marked = markInterrupted(answer);
  try {
    // An upsert by the answer's id: the same row the dead replica saved its steps into.
    if (!(await saveMessage(db, chatId, marked))) return null;
  } catch (error) {
    // The chat was deleted meanwhile (foreign key): nothing to keep it in.
    console.warn("[switchboard] could not keep an interrupted answer:", redact(error instanceof Error ? error.message : String(error)));
    return null;
  }
  return marked;
}
