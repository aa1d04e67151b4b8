/**
 * The layout of a chat turn in the coordination, and its writer (docs/chat.md#in-cluster-mode):
 *
 * - the **record** `turn:<chatId>`: which turn of the chat is the latest, its owner, the replica
 *   running it and its state (running, done, interrupted; unreplayable past the byte cap);
 * - the **beat** `turn-beat:<turnId>`: renewed every `beatMs` by the running replica, lapsing
 *   `beatTtlMs` after it stops — the turn's own heartbeat, faster than the replica's (6 s), so a
 *   death is seen within seconds;
 * - the **list** `turn-chunks:<turnId>`: entries that are JSON arrays of chunks (the replay's
 *   prefix first), ending with one `{"end": …}` entry; bounded by `maxBytes`, forgotten `maxAgeMs`
 *   after its last append, and `lingerMs` after the turn ended;
 * - the **index** `turn-index:<10-minute bucket>`: the turns started, for the sweep;
 * - the channel `turn:<turnId>`: a wake-up per append, so readers never block a Redis connection.
 */
import type { UIMessageChunk } from "ai";
import type { Coordination } from "../cluster/coordination";

/** How a turn's list ended: finished, kept as interrupted by another replica, or not replayable (the byte cap, a lost write). */
export type End = "done" | "interrupted" | "unreplayable";

/** Where a turn is: running on its replica, finished, or kept as interrupted by another replica. */
export type TurnState = "running" | "done" | "interrupted";

/** The record of a chat's latest turn. */
export interface TurnRecord {
  turnId: string;
  ownerId: string;
  replica: string;
  state: TurnState;
  /** Past the byte cap (or a write was lost): the list cannot replay the turn. */
  unreplayable?: boolean;
}

/** A turn the index names, as the sweep remembers it. */
export interface IndexEntry {
  chatId: string;
  turnId: string;
  replica: string;
  at: number;
}

/** The entry a finished list ends with. */
export const endEntry = (end: End) => JSON.stringify({ end });
/** Index buckets: one list per 10 minutes of turn starts, so no list grows without end. */
export const BUCKET_MS = 10 * 60_000;

/** The record of `chatId`'s latest turn (a value). */
export const recordKey = (chatId: string) => `turn:${chatId}`;
/** The beat of a running turn (a value with a short time to live). */
export const beatKey = (turnId: string) => `turn-beat:${turnId}`;
/** The list of a turn's chunks. */
export const chunksKey = (turnId: string) => `turn-chunks:${turnId}`;
/** The channel that wakes a turn's readers after each append. */
export const wakeChannel = (turnId: string) => `turn:${turnId}`;
/** The list of turns started in one bucket of time, for the sweep. */
export const indexKey = (bucket: number) => `turn-index:${bucket}`;

/** A stored record, or null when there is none (or it is not one). */
export function parseRecord(text: string | null): TurnRecord | null {
  if (!text) return null;
  try {
    const record = JSON.parse(text) as TurnRecord;
    return typeof record.turnId === "string" && typeof record.ownerId === "string" ? record : null;
  } catch {
    return null;
  }
}

/** A list's entries as chunks, and how it ended when an end entry is among them (entries after it are ignored). */
export function readEntries(entries: string[]): { chunks: UIMessageChunk[]; end: End | null; read: number } {
  const chunks: UIMessageChunk[] = [];
  let read = 0;
  for (const entry of entries) {
    read++;
    const parsed = JSON.parse(entry) as UIMessageChunk[] | { end: End };
    if (Array.isArray(parsed)) chunks.push(...parsed);
    else return { chunks, end: parsed.end, read };
  }
  return { chunks, end: null, read };
}

/** The limits a mirror writes with (lib/agent/shared-turn-buffer.ts sets them). */
export interface MirrorLimits {
  maxBytes: number;
  maxAgeMs: number;
  lingerMs: number;
  beatMs: number;
  beatTtlMs: number;
}

/** What a mirror tells the buffer that owns it. */
export interface MirrorHooks {
  /** A write failed (logged at most every few seconds by the owner). */
  warn(what: string, error: unknown): void;
  /** The turn ended and its end is written. */
  ended(chatId: string, turnId: string): void;
}

/**
 * One running turn's copy in the coordination: chunks are appended in batches (what arrived while
 * the previous append was under way), in order, each followed by a wake-up. A failed write makes
 * the turn unreplayable (its readers end; the turn itself runs on and is saved as always).
 */
export class TurnMirror {
  private pending: UIMessageChunk[] = [];
  private bytes = 0;
  private chain: Promise<void> = Promise.resolve();
  private scheduled = false;
  private unreplayable = false;
  private ended = false;
  private readonly beat: NodeJS.Timeout;

  constructor(
    private readonly hooks: MirrorHooks,
    private readonly coordination: Coordination,
    readonly chatId: string,
    readonly record: TurnRecord,
    private readonly limits: MirrorLimits,
  ) {
    this.beat = setInterval(() => void this.renewBeat(), limits.beatMs);
    this.beat.unref();
  }

  /** Write the beat, the record, the index entry and the prefix (the first entry of the list). */
  async open(prefix: UIMessageChunk[]): Promise<void> {
    const { turnId } = this.record;
    try {
      const bucket = Math.floor(Date.now() / BUCKET_MS);
      const entry: IndexEntry = { chatId: this.chatId, turnId, replica: this.record.replica, at: Date.now() };
      // The beat, the chunks and the index entry side by side (one round trip before the first
      // token, not two); the record that makes the turn visible comes after all three, so a reader
      // never finds a running turn without its beat or its first chunks.
      await Promise.all([
        this.coordination.put(beatKey(turnId), "1", this.limits.beatTtlMs),
        this.coordination.append(chunksKey(turnId), JSON.stringify(prefix), this.limits.maxAgeMs),
        this.coordination.append(indexKey(bucket), JSON.stringify(entry), this.limits.maxAgeMs + BUCKET_MS),
      ]);
      this.bytes = JSON.stringify(prefix).length;
      await this.putRecord("running", this.limits.maxAgeMs);
    } catch (error) {
      this.lose(error);
    }
  }

  /** Queue one chunk of the turn. */
  push(chunk: UIMessageChunk): void {
    if (this.unreplayable || this.ended) return;
    this.bytes += JSON.stringify(chunk)?.length ?? 0;
    if (this.bytes > this.limits.maxBytes) {
      // Past the cap: no more appends; readers end and new ones are refused (as in memory).
      this.unreplayable = true;
      this.pending = [];
      this.chain = this.chain.then(() => this.markUnreplayable());
      return;
    }
    this.pending.push(chunk);
    if (this.scheduled) return;
    this.scheduled = true;
    this.chain = this.chain.then(() => this.drain());
  }

  /** The turn ended: after the queued appends, end the list, mark the record done, and let both linger. */
  end(): Promise<void> {
    if (this.ended) return this.chain;
    this.ended = true;
    this.chain = this.chain.then(async () => {
      clearInterval(this.beat);
      const { turnId } = this.record;
      try {
        if (!this.unreplayable) await this.coordination.append(chunksKey(turnId), endEntry("done"), this.limits.lingerMs);
        await this.coordination.expire(chunksKey(turnId), this.limits.lingerMs);
        // A newer turn of the chat has its own record: never overwrite it with this one's end.
        const current = parseRecord(await this.coordination.get(recordKey(this.chatId)));
        if (current?.turnId === turnId && current.state === "running") await this.putRecord("done", this.limits.lingerMs);
        await this.coordination.drop(beatKey(turnId));
        await this.coordination.publish(wakeChannel(turnId), "");
      } catch (error) {
        this.hooks.warn("could not mark a finished turn", error);
      } finally {
        this.hooks.ended(this.chatId, turnId);
      }
    });
    return this.chain;
  }

  private async drain(): Promise<void> {
    this.scheduled = false;
    if (this.unreplayable || this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    const { turnId } = this.record;
    try {
      await this.coordination.append(chunksKey(turnId), JSON.stringify(batch), this.limits.maxAgeMs);
      await this.coordination.publish(wakeChannel(turnId), "");
    } catch (error) {
      this.lose(error);
    }
  }

  private async renewBeat(): Promise<void> {
    try {
      await this.coordination.put(beatKey(this.record.turnId), "1", this.limits.beatTtlMs);
      // A mark that failed earlier (Redis was away) is written once Redis answers again.
      if (this.unreplayable && !this.record.unreplayable) await this.markUnreplayable();
    } catch {
      // Redis is away: the beat lapses and the others take the turn for lost, as they would if this replica died.
    }
  }

  /** A write failed: the list has a gap, so no reader may trust it any more. */
  private lose(error: unknown): void {
    if (!this.unreplayable) this.hooks.warn("a running turn can no longer be replayed on other replicas", error);
    this.unreplayable = true;
    this.pending = [];
    this.chain = this.chain.then(() => this.markUnreplayable());
  }

  private async markUnreplayable(): Promise<void> {
    try {
      await this.coordination.append(chunksKey(this.record.turnId), endEntry("unreplayable"), this.limits.maxAgeMs);
      this.record.unreplayable = true;
      await this.putRecord("running", this.limits.maxAgeMs);
      await this.coordination.publish(wakeChannel(this.record.turnId), "");
    } catch {
      this.record.unreplayable = false; // retried with the next beat
    }
  }

  private async putRecord(state: TurnState, ttlMs: number): Promise<void> {
    this.record.state = state;
    await this.coordination.put(recordKey(this.chatId), JSON.stringify(this.record), ttlMs);
  }
}

/** `stream` passed through, each chunk also handed to `mirror`; its end (or failure) ends the mirror. */
export function mirrored(stream: ReadableStream<UIMessageChunk>, mirror: TurnMirror): ReadableStream<UIMessageChunk> {
  const reader = stream.getReader();
  return new ReadableStream<UIMessageChunk>({
    async pull(controller) {
      try {
        const { value, done } = await reader.read();
        if (done) {
          void mirror.end();
          controller.close();
          return;
        }
        mirror.push(value);
        controller.enqueue(value);
      } catch (error) {
        void mirror.end();
        controller.error(error);
      }
    },
    async cancel(reason) {
      void mirror.end();
      await reader.cancel(reason);
    },
  });
}
