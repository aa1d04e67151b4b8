/**
 * Which request a discarded server message answered, read from the little of it that was kept (its
 * first and last bytes): the id at its start (`{"jsonrpc":"2.0","id":7,…`) or at its end (`…,"id":7}`,
 * where the SDK's servers write it). A message that shows a `method` is the server's own request or
 * notification, never an answer; anything unreadable answers nothing known.
 */

/** The first and last bytes kept of a discarded message. */
export interface MessageEnds {
  head: string;
  tail: string;
}

/** How many bytes of each end are kept to read the id from. */
export const PEEK_BYTES = 512;

const ID_VALUE = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
const HEAD_ID = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*` + ID_VALUE + String.raw`\s*(,\s*"method")?`);
const TAIL_ID = new RegExp(String.raw`"id"\s*:\s*` + ID_VALUE + String.raw`\s*\}\s*$`);
// A request or notification as the SDK writes it: `method` first (after `jsonrpc` at most).
const HEAD_METHOD = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"method"\s*:/;

/** Whether a message's start shows a `method`: the server's own request or notification, not an answer. */
export function startsAsServerMessage(head: string): boolean {
  return HEAD_METHOD.test(head) || HEAD_ID.exec(head)?.[2] !== undefined;
}

/** The response id of a discarded message, when its ends show it; undefined when unknown or not a response. */
export function guessResponseId({ head, tail }: MessageEnds): string | number | undefined {
  if (startsAsServerMessage(head)) return undefined;
  const match = HEAD_ID.exec(head) ?? TAIL_ID.exec(tail);
  if (!match) return undefined;
  try {
    return JSON.parse(match[1]) as string | number;
  } catch {
    return undefined; // an unparsable id answers nothing known
  }
}
