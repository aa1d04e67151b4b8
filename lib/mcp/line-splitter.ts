/**
 * Splits a child's stdout into newline-delimited JSON-RPC lines without ever buffering more than
 * `maxBytes` of one line: an over-long line is reported once (with its head and tail, where the
 * response id usually sits) and discarded, so one huge result cannot exhaust memory or the link.
 */

/** What is known about a discarded over-long line. */
export interface OversizedLine {
  bytes: number;
  head: string;
  tail: string;
}

const PEEK_BYTES = 512;

/** Incremental splitter; call `push` with each stdout chunk. */
export class LineSplitter {
  private parts: Buffer[] = [];
  private size = 0;
  private oversized: { head: Buffer; tail: Buffer } | null = null;

  constructor(
    private readonly maxBytes: number,
    private readonly onLine: (line: string) => void,
    private readonly onOversized: (line: OversizedLine) => void,
    /** Called once as soon as a line passes the cap (before it ends: it may never end). */
    private readonly onOverflow?: (head: string) => void,
  ) {}

  /** Feed one chunk; complete lines are delivered synchronously. */
  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      this.append(chunk.subarray(start, newline === -1 ? chunk.length : newline));
      if (newline === -1) return;
      this.finishLine();
      start = newline + 1;
    }
  }

  private append(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.oversized) {
      this.size += piece.length;
      this.oversized.tail = lastBytes(Buffer.concat([this.oversized.tail, piece]), PEEK_BYTES);
      return;
    }
    if (this.size + piece.length <= this.maxBytes) {
      this.parts.push(piece);
      this.size += piece.length;
      return;
    }
    const all = Buffer.concat([...this.parts, piece]);
    this.oversized = { head: all.subarray(0, PEEK_BYTES), tail: lastBytes(all, PEEK_BYTES) };
    this.parts = [];
    this.size += piece.length;
    this.onOverflow?.(this.oversized.head.toString("utf8"));
  }

  private finishLine(): void {
    if (this.oversized) {
      const { head, tail } = this.oversized;
      this.onOversized({ bytes: this.size, head: head.toString("utf8"), tail: tail.toString("utf8") });
    } else {
      const line = Buffer.concat(this.parts).toString("utf8").replace(/\r$/, "");
      if (line.trim()) this.onLine(line);
    }
    this.parts = [];
    this.size = 0;
    this.oversized = null;
  }
}

function lastBytes(buffer: Buffer, count: number): Buffer {
  return buffer.length <= count ? Buffer.from(buffer) : Buffer.from(buffer.subarray(buffer.length - count));
}

const ID_VALUE = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
const HEAD_ID = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*` + ID_VALUE);
const TAIL_ID = new RegExp(String.raw`"id"\s*:\s*` + ID_VALUE + String.raw`\s*\}\s*$`);

/**
 * The response id of a discarded line, if it can be read from its head (`{"jsonrpc":"2.0","id":..`)
 * or its tail (`.."id":7}`: the SDK's servers write the id last). Undefined when unknown.
 */
export function guessResponseId(line: Pick<OversizedLine, "head" | "tail">): string | number | undefined {
  const match = HEAD_ID.exec(line.head) ?? TAIL_ID.exec(line.tail);
  if (!match) return undefined;
  try {
    return JSON.parse(match[1]) as string | number;
  } catch {
    return undefined; // an unparsable id is treated as unknown: the oldest request is failed instead
  }
}
