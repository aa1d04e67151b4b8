/**
 * A linear scan of JSON text that refuses too deep or too wide documents before anything parses
 * them: `JSON.parse` of a million keys blocks the event loop for seconds, and a deeply nested
 * schema overflows the stack of every recursive consumer downstream. Fed in chunks (bytes or text).
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Why a document was refused. */
export interface ShapeRefusal {
  kind: "depth" | "members";
  limit: number;
}

/** Incremental scanner for one JSON document; `reset()` before the next. */
export class JsonShapeScanner {
  private depth = 0;
  private members = 0;
  private inString = false;
  private escaped = false;
  private refusal: ShapeRefusal | null = null;

  constructor(
    private readonly maxDepth: number,
    private readonly maxMembers: number,
  ) {}

  /** Start over for a new document. */
  reset(): void {
    this.depth = 0;
    this.members = 0;
    this.inString = false;
    this.escaped = false;
    this.refusal = null;
  }

  /** The first refusal so far, if any. */
  get refused(): ShapeRefusal | null {
    return this.refusal;
  }

  /** Scan UTF-8 bytes (structural characters are ASCII, so multi-byte sequences never match). */
  pushBytes(bytes: Uint8Array): ShapeRefusal | null {
    // A Buffer view (no copy): its indexOf is memchr, many times faster than Uint8Array's.
    const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let i = 0;
    while (i < bytes.length && !this.refusal) {
      if (this.inString)
        i = this.skipString(
          bytes,
          i,
          (from) => view.indexOf(QUOTE, from),
          (at) => bytes[at],
        );
      else this.step(bytes[i++]);
    }
    return this.refusal;
  }

  /** Scan text. */
  pushText(text: string): ShapeRefusal | null {
    let i = 0;
    while (i < text.length && !this.refusal) {
      if (this.inString)
        i = this.skipString(
          text,
          i,
          (from) => text.indexOf('"', from),
          (at) => text.charCodeAt(at),
        );
      else this.step(text.charCodeAt(i++));
    }
    return this.refusal;
  }

  /**
   * Inside a string, jump to its closing quote with the native `indexOf` instead of a step per
   * byte: string contents are nearly all of a large message, and a per-byte loop over 16 MiB per
   * reply was the main cost a hostile neighbour imposed on everyone else. A quote is escaped when
   * an odd run of backslashes precedes it. Returns where scanning continues.
   */
  private skipString(input: { length: number }, from: number, findQuote: (from: number) => number, at: (i: number) => number): number {
    let i = from;
    if (this.escaped) {
      this.escaped = false;
      i++;
    }
    while (i < input.length) {
      const quote = findQuote(i);
      const end = quote === -1 ? input.length : quote;
      let run = 0;
      while (end - run > i && at(end - run - 1) === BACKSLASH) run++;
      if (quote === -1) {
        this.escaped = run % 2 === 1;
        return input.length;
      }
      if (run % 2 === 0) {
        this.inString = false;
        return quote + 1;
      }
      i = quote + 1; // an escaped quote: still inside the string
    }
    return i;
  }

  // Outside strings only (strings are skipped whole by skipString).
  private step(c: number): void {
    if (c === QUOTE) this.inString = true;
    else if (c === 0x7b || c === 0x5b) {
      // `{` / `[`: one level deeper and (for a non-empty container) at least one member.
      if (++this.depth > this.maxDepth) this.refusal = { kind: "depth", limit: this.maxDepth };
      this.count();
    } else if (c === 0x7d || c === 0x5d) this.depth--;
    else if (c === 0x2c) this.count();
  }

  private count(): void {
    if (++this.members > this.maxMembers) this.refusal = { kind: "members", limit: this.maxMembers };
  }
}

/** Check one complete JSON text; null when it is within both bounds. */
export function checkJsonShape(text: string, maxDepth: number, maxMembers: number): ShapeRefusal | null {
  return new JsonShapeScanner(maxDepth, maxMembers).pushText(text);
}

/** A readable sentence for a refusal, naming the variable that raises the limit. */
export function describeRefusal(refusal: ShapeRefusal): string {
  return refusal.kind === "depth"
    ? `the message nests deeper than ${refusal.limit} levels (raise SWITCHBOARD_MCP_MAX_JSON_DEPTH to allow more)`
    : `the message has more than ${refusal.limit} keys and array elements (raise SWITCHBOARD_MCP_MAX_JSON_MEMBERS to allow more)`;
}
