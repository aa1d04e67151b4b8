/**
 * A linear scan of JSON text that refuses too deep or too wide documents before anything parses
 * them: `JSON.parse` of a million keys blocks the event loop for seconds, and a deeply nested
 * schema overflows the stack of every recursive consumer downstream. Fed in chunks (bytes or text).
 */

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
    for (let i = 0; i < bytes.length && !this.refusal; i++) this.step(bytes[i]);
    return this.refusal;
  }

  /** Scan text. */
  pushText(text: string): ShapeRefusal | null {
    for (let i = 0; i < text.length && !this.refusal; i++) this.step(text.charCodeAt(i));
    return this.refusal;
  }

  private step(c: number): void {
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (c === 0x5c) this.escaped = true;
      else if (c === 0x22) this.inString = false;
      return;
    }
    if (c === 0x22) this.inString = true;
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
