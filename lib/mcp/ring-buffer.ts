/**
 * Bounded text buffer for a child's stderr: keeps the last `maxBytes` so a chatty server cannot
 * grow memory, while troubleshooting still sees the most recent lines.
 */

/** Keeps the last `maxBytes` bytes written. */
export class RingBuffer {
  private chunks: Buffer[] = [];
  private size = 0;

  constructor(private readonly maxBytes: number) {}

  /** Append bytes, dropping the oldest beyond the cap. */
  write(chunk: Buffer | string): void {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    this.chunks.push(buffer);
    this.size += buffer.length;
    while (this.size > this.maxBytes && this.chunks.length > 0) {
      const excess = this.size - this.maxBytes;
      const first = this.chunks[0];
      if (first.length <= excess) {
        this.chunks.shift();
        this.size -= first.length;
      } else {
        this.chunks[0] = first.subarray(excess);
        this.size -= excess;
      }
    }
  }

  /** The kept text (a cut multi-byte character at the start decodes as U+FFFD). */
  text(): string {
    return Buffer.concat(this.chunks).toString("utf8");
  }

  /** Drop everything. */
  clear(): void {
    this.chunks = [];
    this.size = 0;
  }
}
