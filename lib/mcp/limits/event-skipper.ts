/**
 * Discards the rest of one over-cap SSE event on a long-lived event stream (the legacy HTTP+SSE
 * stream carries every answer of the session): bytes are dropped up to the blank line that ends
 * the event, keeping only the first and last bytes of its data, so the stream resynchronises on
 * the next event and the request the event answered can still be named by its id.
 */
import { PEEK_BYTES } from "./response-id";

const DATA_PREFIX = Buffer.from("data:");

/** One event being skipped; `feed` until it reports the event's end. */
export class EventSkipper {
  private lineBytes = 0;
  private lineStart: Buffer = Buffer.alloc(0);
  private lineTail: Buffer = Buffer.alloc(0);
  private dataTail = "";

  /**
   * `head`: the first bytes of the event's data, already seen; `lineSoFar`: the pieces of the line
   * the cap fired in (empty at a line boundary), which the bytes that follow continue unless
   * `lineEnded` (the cap fired on a whole line).
   */
  constructor(
    readonly head: string,
    lineSoFar: Uint8Array[] = [],
    lineEnded = false,
  ) {
    for (const part of lineSoFar) this.take(part);
    if (lineEnded) this.endLine();
  }

  /** The last bytes of the event's last data line seen so far. */
  get tail(): string {
    return this.dataTail;
  }

  /** Consume `chunk` from `start`; returns where the event ended (the next event starts there), or -1 when it goes on. */
  feed(chunk: Uint8Array, start: number): number {
    let at = start;
    while (at < chunk.length) {
      const newline = chunk.indexOf(0x0a, at);
      const piece = chunk.subarray(at, newline === -1 ? chunk.length : newline);
      if (newline === -1) {
        this.take(piece);
        return -1;
      }
      this.take(piece);
      // A blank line ("" or a lone CR) ends the event.
      if (this.lineBytes === 0 || (this.lineBytes === 1 && this.lineTail[0] === 0x0d)) return newline + 1;
      this.endLine();
      at = newline + 1;
    }
    return -1;
  }

  private take(piece: Uint8Array): void {
    if (piece.length === 0) return;
    if (this.lineStart.length < DATA_PREFIX.length) {
      this.lineStart = Buffer.concat([this.lineStart, piece.subarray(0, DATA_PREFIX.length - this.lineStart.length)]);
    }
    this.lineTail = lastBytes(Buffer.concat([this.lineTail, lastBytes(Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength))]));
    this.lineBytes += piece.length;
  }

  private endLine(): void {
    if (this.lineStart.equals(DATA_PREFIX)) this.dataTail = this.lineTail.toString("utf8").replace(/\r$/, "");
    this.lineBytes = 0;
    this.lineStart = Buffer.alloc(0);
    this.lineTail = Buffer.alloc(0);
  }
}

function lastBytes(buffer: Buffer): Buffer {
  return buffer.length <= PEEK_BYTES ? buffer : buffer.subarray(buffer.length - PEEK_BYTES);
}
