/**
 * Limits for `text/event-stream` bodies, applied while streaming: one line and one event at most
 * `maxMessageBytes`, the JSON shape of each event's data, and `retry:` at least 500 ms. Only whole,
 * checked events are passed on, so memory stays bounded by one event. Over a cap, or when the
 * stream breaks or ends without an answer, the request this stream answers fails at once. On a
 * standalone event stream (which carries the whole session's answers over legacy HTTP+SSE) an
 * event over a cap is discarded up to its end and the stream goes on; the request it answered,
 * read from its id, fails with the cap's message, and no other.
 */
import { sseErrorEvent, type BodyProcessor, type Emit } from "./body-processor";
import type { ConnectionGuard, RpcId } from "./connection-guard";
import { STREAM_BROKEN_RPC_CODE } from "../errors";
import { EventSkipper } from "./event-skipper";
import { describeRefusal, JsonShapeScanner } from "./json-shape";
import { guessResponseId, PEEK_BYTES, startsAsServerMessage } from "./response-id";
import { MIN_REOPEN_MS } from "./reconnect-budget";
import { raiseHint } from "./settings";

const encoder = new TextEncoder();
const DATA_PREFIX = encoder.encode("data:");
const RETRY_PREFIX = encoder.encode("retry:");
const NEWLINE = encoder.encode("\n");

/** Processor for one SSE body answering `ids` (empty for the standalone GET stream). */
export class SseLimiter implements BodyProcessor {
  private readonly scanner: JsonShapeScanner;
  private event: Uint8Array[] = [];
  private eventBytes = 0;
  private line: Uint8Array[] = [];
  private lineBytes = 0;
  private sawData = false;
  private eventHasData = false;
  private skipper: EventSkipper | null = null;
  private skipReason = "";
  private skipAnswered = false;

  /** `standalone`: the GET event stream, which carries notifications and server requests only. */
  constructor(
    private readonly guard: ConnectionGuard,
    private readonly ids: RpcId[],
    private readonly standalone = false,
  ) {
    this.scanner = new JsonShapeScanner(guard.limits.maxJsonDepth, guard.limits.maxJsonMembers);
  }

  push(chunk: Uint8Array, emit: Emit): boolean {
    const max = this.guard.limits.maxMessageBytes;
    let start = 0;
    while (start < chunk.length) {
      if (this.skipper) {
        start = this.skipper.feed(chunk, start);
        if (start === -1) return true;
        this.endSkip(emit);
        continue;
      }
      const newline = chunk.indexOf(0x0a, start);
      const piece = chunk.subarray(start, newline === -1 ? chunk.length : newline);
      this.lineBytes += piece.length;
      if (this.lineBytes + this.eventBytes > max) {
        if (!this.standalone) return this.fail(overCap(max), emit);
        // The event stream carries other answers too: drop this event only, up to its end.
        this.startSkip(overCap(max), [...this.line, piece], emit);
        start = newline === -1 ? chunk.length : newline;
        continue;
      }
      this.line.push(piece.slice());
      if (newline === -1) return true;
      if (!this.finishLine(emit)) return false;
      start = newline + 1;
    }
    return true;
  }

  end(emit: Emit): void {
    // A request that got no data at all fails now instead of waiting out its timeout.
    if (!this.sawData && this.ids.length > 0) {
      emit(sseErrorEvent(this.ids[0], "the server closed the response stream without answering", STREAM_BROKEN_RPC_CODE));
    }
  }

  broken(reason: string, emit: Emit): void {
    if (this.ids.length > 0) emit(sseErrorEvent(this.ids[0], `the response stream broke: ${reason}`, STREAM_BROKEN_RPC_CODE));
  }

  private finishLine(emit: Emit): boolean {
    let text = concat(this.line, this.lineBytes);
    this.line = [];
    this.lineBytes = 0;
    if (text[text.length - 1] === 0x0d) text = text.subarray(0, -1);
    if (text.length === 0) {
      // Blank line: the event is complete and checked; pass it on whole. On the standalone stream
      // (notifications and server requests only) an event over the notification rate is shed
      // here, unparsed: parsing and validating each message of a flood only to drop it was the
      // largest cost a flooding server still put on the process.
      if (this.standalone && this.eventHasData && !this.guard.notificationWouldPass()) this.guard.noteDroppedNotification();
      else if (this.event.length > 0) emit(concat([...this.event, NEWLINE], this.eventBytes + 1));
      this.eventHasData = false;
      this.event = [];
      this.eventBytes = 0;
      this.scanner.reset();
      return true;
    }
    if (startsWith(text, DATA_PREFIX)) {
      this.sawData = true;
      this.eventHasData = true;
      const refusal = this.scanner.pushBytes(text.subarray(DATA_PREFIX.length));
      if (refusal && this.standalone) {
        this.startSkip(describeRefusal(refusal), [text], emit, true);
        return true;
      }
      if (refusal) return this.fail(describeRefusal(refusal), emit);
    } else if (startsWith(text, RETRY_PREFIX)) {
      const retry = Number(new TextDecoder().decode(text.subarray(RETRY_PREFIX.length)).trim());
      // A server's `retry: 0` would make the client reconnect in a tight loop.
      if (!(retry >= MIN_REOPEN_MS)) text = encoder.encode(`retry: ${MIN_REOPEN_MS}`);
    }
    this.eventBytes += text.length + 1;
    if (this.eventBytes > this.guard.limits.maxMessageBytes) return this.fail(overCap(this.guard.limits.maxMessageBytes), emit);
    this.event.push(text, NEWLINE);
    return true;
  }

  /**
   * Start discarding the current event of the standalone stream (`lineSoFar`: the pieces of the
   * line the cap fired in, a whole line when `lineEnded`). The request whose id the event's start shows fails now; with no id
   * there, the event's end may show one. While connecting, an event that answers nothing known
   * fails the connect (ConnectionGuard.onUnattributedRefusal).
   */
  private startSkip(reason: string, lineSoFar: Uint8Array[], emit: Emit, lineEnded = false): void {
    this.guard.noteRefused(reason);
    const head = dataHead(this.event, lineSoFar.length > 0 ? firstBytes(lineSoFar) : []);
    this.skipper = new EventSkipper(head, lineSoFar, lineEnded);
    this.skipReason = reason;
    this.event = [];
    this.eventBytes = 0;
    this.line = [];
    this.lineBytes = 0;
    this.scanner.reset();
    this.eventHasData = false;
    const id = guessResponseId({ head, tail: "" });
    this.skipAnswered = id !== undefined && this.failAwaited(id, reason, emit);
    if (id === undefined && !startsAsServerMessage(head)) this.guard.onUnattributedRefusal?.(reason);
  }

  /** The skipped event ended: the stream goes on with the next one. */
  private endSkip(emit: Emit): void {
    const skipper = this.skipper!;
    this.skipper = null;
    if (this.skipAnswered) return;
    const id = guessResponseId({ head: skipper.head, tail: skipper.tail });
    if (id !== undefined) this.failAwaited(id, this.skipReason, emit);
  }

  /** Fail request `id` when the client still awaits it; never another one. */
  private failAwaited(id: RpcId, reason: string, emit: Emit): boolean {
    if (!this.guard.isAwaiting(id)) return false;
    emit(sseErrorEvent(id, reason));
    return true;
  }

  private fail(reason: string, emit: Emit): false {
    this.guard.noteRefused(reason);
    this.event = [];
    this.line = [];
    if (this.ids.length > 0) emit(sseErrorEvent(this.ids[0], reason));
    return false;
  }
}

/** The first bytes of an event's first data line (of its whole `lines`, then the `partial` one), without `data:`. */
function dataHead(lines: Uint8Array[], partial: Uint8Array[]): string {
  const starts = lines.filter((line) => line !== NEWLINE).map((line) => line.subarray(0, PEEK_BYTES + DATA_PREFIX.length));
  starts.push(
    concat(
      partial,
      partial.reduce((n, part) => n + part.length, 0),
    ).subarray(0, PEEK_BYTES + DATA_PREFIX.length),
  );
  const first = starts.find((line) => startsWith(line, DATA_PREFIX));
  return first ? new TextDecoder().decode(first.subarray(DATA_PREFIX.length)).replace(/^ /, "") : "";
}

/** The leading pieces of a line, enough for its first PEEK_BYTES and field name. */
function firstBytes(parts: Uint8Array[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  let total = 0;
  for (const part of parts) {
    if (total > PEEK_BYTES + DATA_PREFIX.length) break;
    out.push(part.subarray(0, PEEK_BYTES + DATA_PREFIX.length));
    total += part.length;
  }
  return out;
}

/** The message of an over-size refusal. */
export function overCap(max: number): string {
  return `one message exceeds ${max} bytes; it was discarded (${raiseHint("maxMessageBytes")})`;
}

function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  if (bytes.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[i] !== prefix[i]) return false;
  return true;
}

function concat(parts: Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
