/**
 * Resumable chat turns without Redis (docs/chat.md#runs-that-survive-navigation): each running turn's
 * UI stream chunks are kept in memory, keyed by chat id and owner, so a reader that left (another
 * page, a reload) can replay the answer from its start and follow it live. The turn itself is
 * consumed here, not by the HTTP response, so closing the page never stalls or stops it.
 *
 * Bounded three ways: bytes per turn (past it the turn keeps running but can no longer be replayed),
 * buffers at once (the oldest finished ones go first), and time (a finished buffer lingers briefly
 * so a reconnect racing the end still gets the whole answer; a running one is dropped after a cap).
 */

/** The limits of the buffer; defaults in each field's comment. */
export interface TurnBufferOptions {
  /** Bytes of serialized chunks kept per turn (8 MiB). */
  maxBytes?: number;
  /** Buffers kept at once (200). */
  maxTurns?: number;
  /** How long a finished turn stays replayable, ms (60 s). */
  lingerMs?: number;
  /** How long a running turn stays replayable, ms (30 min). */
  maxAgeMs?: number;
  /** The clock (tests pass a fake one). */
  now?: () => number;
}

interface Reader {
  /** Absolute index of the next chunk this reader gets. */
  position: number;
  wake: (() => void) | null;
  cancelled: boolean;
}

interface Entry<T> {
  chatId: string;
  ownerId: string;
  /** The chunks from absolute index `base` on (earlier ones were dropped after an overflow). */
  chunks: T[];
  base: number;
  bytes: number;
  done: boolean;
  /** Set when the byte cap was passed: new readers can no longer start from the beginning. */
  overflowed: boolean;
  startedAt: number;
  endedAt: number | null;
  readers: Set<Reader>;
  stop: () => void;
  /** Chunks a rejoining reader gets first (the message a continuation extends); the live reader already has it. */
  prefix: T[];
  /** Settles when the turn's stream has ended (its answer saved: the stream closes after its last save). */
  ended: Promise<void>;
  markEnded: () => void;
}

/** An in-process store of running turns' chunks, one per chat. */
export class TurnBuffer<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly maxBytes: number;
  private readonly maxTurns: number;
  private readonly lingerMs: number;
  private readonly maxAgeMs: number;
  private readonly now: () => number;

  constructor(options: TurnBufferOptions = {}) {
    this.maxBytes = options.maxBytes ?? 8 * 1024 * 1024;
    this.maxTurns = options.maxTurns ?? 200;
    this.lingerMs = options.lingerMs ?? 60_000;
    this.maxAgeMs = options.maxAgeMs ?? 30 * 60_000;
    this.now = options.now ?? Date.now;
  }

  /**
   * Start consuming `stream` as the turn of `chatId` owned by `ownerId` and return a live reader of
   * it. `stop` aborts the turn (Stop, or a newer turn in the same chat, calls it). A previous turn of
   * the same chat is stopped first: one chat has one answer at a time. `prefix` is replayed to
   * readers who rejoin, before the turn's own chunks.
   */
  start(chatId: string, ownerId: string, stream: ReadableStream<T>, stop: () => void, prefix: T[] = []): ReadableStream<T> {
    this.prune();
    const previous = this.entries.get(chatId);
    if (previous && !previous.done) previous.stop();
    if (previous) this.forget(chatId, previous);
    this.makeRoom();
    let markEnded = () => {};
    const ended = new Promise<void>((resolve) => {
      markEnded = resolve;
    });
    const entry: Entry<T> = {
      chatId,
      ownerId,
      chunks: [],
      base: 0,
      bytes: 0,
      done: false,
      overflowed: false,
      startedAt: this.now(),
      endedAt: null,
      readers: new Set(),
      stop,
      prefix,
      ended,
      markEnded,
    };
    this.entries.set(chatId, entry);
    const reader = this.follow(entry);
    void this.pump(entry, stream);
    return reader;
  }

  /** A reader replaying the running (or just finished) turn of `chatId` from its start, or null when there is none for this owner. */
  resume(chatId: string, ownerId: string): ReadableStream<T> | null {
    this.prune();
    const entry = this.entries.get(chatId);
    // Someone else's chat looks exactly like no turn at all.
    if (!entry || entry.ownerId !== ownerId || entry.overflowed) return null;
    return this.follow(entry, entry.prefix);
  }

  /** Stop the running turn of `chatId` when `ownerId` owns it; true when one was stopped. */
  stop(chatId: string, ownerId: string): boolean {
    const entry = this.entries.get(chatId);
    if (!entry || entry.ownerId !== ownerId || entry.done) return false;
    entry.stop();
    return true;
  }

  /**
   * Stop the running turn of `chatId` when `ownerId` owns it, and wait (at most `waitMs`) until its
   * stream has ended, so what comes next (a refreshed page, a new turn) reads the stopped answer as
   * saved. True when one was stopped.
   */
  async stopAndWait(chatId: string, ownerId: string, waitMs = 3_000): Promise<boolean> {
    const entry = this.entries.get(chatId);
    if (!this.stop(chatId, ownerId) || !entry) return false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([entry.ended, new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)))]);
    clearTimeout(timer);
    return true;
  }

  /** The number of buffers held (tests check the bounds with it). */
  get size(): number {
    return this.entries.size;
  }

  /** Chunks held for `chatId` right now (tests check the byte cap with it). */
  heldChunks(chatId: string): number {
    return this.entries.get(chatId)?.chunks.length ?? 0;
  }

  private async pump(entry: Entry<T>, stream: ReadableStream<T>): Promise<void> {
    const reader = stream.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        this.append(entry, value);
      }
    } catch (error) {
      // The UI stream reports its own errors as chunks; a throw here means the stream itself broke.
      console.warn("[switchboard] chat turn stream failed:", error instanceof Error ? error.message : String(error));
    } finally {
      entry.done = true;
      entry.endedAt = this.now();
      entry.markEnded();
      this.notify(entry);
    }
  }

  private append(entry: Entry<T>, chunk: T): void {
    entry.chunks.push(chunk);
    entry.bytes += JSON.stringify(chunk)?.length ?? 0;
    // Too big to replay: new readers are refused and chunks every current reader has seen are dropped.
    if (entry.bytes > this.maxBytes) entry.overflowed = true;
    this.notify(entry);
  }

  private trim(entry: Entry<T>): void {
    if (!entry.overflowed) return;
    let lowest = entry.base + entry.chunks.length;
    for (const reader of entry.readers) lowest = Math.min(lowest, reader.position);
    if (lowest > entry.base) {
      entry.chunks.splice(0, lowest - entry.base);
      entry.base = lowest;
    }
  }

  private notify(entry: Entry<T>): void {
    for (const reader of entry.readers) reader.wake?.();
  }

  private follow(entry: Entry<T>, prefix: T[] = []): ReadableStream<T> {
    const reader: Reader = { position: entry.base, wake: null, cancelled: false };
    let prefixed = 0;
    entry.readers.add(reader);
    const available = () => reader.position < entry.base + entry.chunks.length;
    return new ReadableStream<T>(
      {
        pull: async (controller) => {
          if (prefixed < prefix.length) {
            controller.enqueue(prefix[prefixed++]);
            return;
          }
          while (!available() && !entry.done && !reader.cancelled) {
            await new Promise<void>((resolve) => {
              reader.wake = resolve;
            });
            reader.wake = null;
          }
          if (reader.cancelled) return;
          if (available()) {
            controller.enqueue(entry.chunks[reader.position - entry.base]);
            reader.position++;
            this.trim(entry);
          } else {
            entry.readers.delete(reader);
            controller.close();
          }
        },
        cancel: () => {
          // The reader left (page closed): the turn runs on; only this reader is forgotten.
          reader.cancelled = true;
          entry.readers.delete(reader);
          reader.wake?.();
          this.trim(entry);
        },
        // Pull only when read, so a reader's position is what it has actually been given.
      },
      { highWaterMark: 0 },
    );
  }

  private prune(): void {
    const now = this.now();
    for (const [chatId, entry] of this.entries) {
      const expired = entry.done ? now - (entry.endedAt ?? now) > this.lingerMs : now - entry.startedAt > this.maxAgeMs;
      if (expired) this.forget(chatId, entry);
    }
  }

  private makeRoom(): void {
    // Over the count: drop finished turns first, oldest first; then the oldest running ones (they keep running, unreplayable).
    const victims = [...this.entries.values()].sort((a, b) => Number(b.done) - Number(a.done) || a.startedAt - b.startedAt);
    while (this.entries.size >= this.maxTurns && victims.length) {
      const victim = victims.shift()!;
      this.forget(victim.chatId, victim);
    }
  }

  private forget(chatId: string, entry: Entry<T>): void {
    this.entries.delete(chatId);
    // Mark it unreplayable: readers already following keep their chunks, nobody new can join.
    entry.overflowed = true;
    this.trim(entry);
  }
}
