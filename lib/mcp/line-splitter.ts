/**
 * Splits a child's stdout into newline-delimited JSON-RPC lines without ever buffering more than
 * `maxBytes` of one line: an over-long line is discarded up to its newline (the next line starts
 * there), reported once as it passes the cap (with its head) and once as it ends (with its head
 * and tail, where the response id usually sits), so one huge result cannot exhaust memory or the link.
 */
import { PEEK_BYTES } from "./limits/response-id";

/** What is known about a discarded over-long line. */
export interface OversizedLine {
  bytes: number;
  head: string;
  tail: string;
}

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
