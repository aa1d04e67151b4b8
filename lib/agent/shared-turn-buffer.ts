/**
 * Resumable chat turns in cluster mode (docs/chat.md#runs-that-survive-navigation): the turn runs
 * on the replica that took its request, in that replica's in-memory `TurnBuffer` (its own readers
 * follow it there), and its UI chunks are also appended to a list in the coordination, so a reader
 * on any replica replays the answer from its start and follows it; Stop reaches the replica running
 * it through a control channel; and when that replica dies, another keeps the partial answer,
 * marked interrupted, exactly once.
 *
 * What the coordination holds per turn (keys below):
 * - the **record** `turn:<chatId>`: which turn of the chat is the latest, its owner, the replica
 *   running it and its state (running, done, interrupted; unreplayable past the byte cap);
 * - the **beat** `turn-beat:<turnId>`: renewed every `beatMs` by the running replica, lapsing
 *   `beatTtlMs` after it stops — the turn's own heartbeat, faster than the replica's (6 s), so a
 *   death is seen within seconds;
 * - the **list** `turn-chunks:<turnId>`: entries that are JSON arrays of chunks (the replay's
 *   prefix first), ending with one `{"end": …}` entry; bounded by `maxBytes`, forgotten `maxAgeMs`
 *   after its last append, and `lingerMs` after the turn ended;
 * - the **index** `turn-index:<10-minute bucket>`: the turns started, for the sweep;
 * - channels `turn:<turnId>` (a wake-up per append, so readers never block a Redis connection) and
 *   `turn-control` (Stop).
 */
import { randomUUID } from "node:crypto";
import type { UIMessageChunk } from "ai";
import type { Coordination } from "../cluster/coordination";
import { TurnBuffer } from "./turn-buffer";

/** How a turn's list ended: finished, kept as interrupted by another replica, or not replayable (the byte cap, a lost write). */
type End = "done" | "interrupted" | "unreplayable";

type TurnState = "running" | "done" | "interrupted";

/** The record of a chat's latest turn. */
interface TurnRecord {
  turnId: string;
  ownerId: string;
  replica: string;
  state: TurnState;
  /** Past the byte cap (or a write was lost): the list cannot replay the turn. */
  unreplayable?: boolean;
}

/** A turn the index names, as the sweep remembers it. */
interface IndexEntry {
  chatId: string;
  turnId: string;
  replica: string;
  at: number;
}

/** What the shared buffer needs besides the coordination, and its limits (defaults in comments). */
export interface SharedTurnBufferOptions {
  /** This replica's id (recorded as the turn's runner). */
  replicaId: string;
  /** Whether a replica's heartbeat lasts (lib/cluster/replicas.ts): the sweep looks at dead replicas' turns. */
  replicaAlive: (id: string) => Promise<boolean>;
  /**
   * Keep the answer of a turn whose runner died: `chunks` is its list (prefix included); `complete`
   * is false when the list stopped at the byte cap. Called once per turn across the cluster.
   */
  keepInterrupted: (turn: { chatId: string; ownerId: string }, chunks: UIMessageChunk[], complete: boolean) => Promise<void>;
  /** Bytes of chunks per turn (8 MiB, as the in-memory buffer). */
  maxBytes?: number;
  /** How long a finished turn stays replayable, ms (60 s). */
  lingerMs?: number;
  /** How long a running turn stays replayable, ms (30 min). */
  maxAgeMs?: number;
  /** How often the running replica renews a turn's beat, ms (1 s). */
  beatMs?: number;
  /** How long a beat lasts, ms (3 s): a turn whose beat lapsed has lost its replica. */
  beatTtlMs?: number;
  /** How often a reader with nothing new checks that the turn's replica is alive, ms (500). */
  pollMs?: number;
  /** How often the sweep looks for turns of dead replicas, ms (2 s). */
  sweepMs?: number;
  /** How long a Stop waits for the stopped turn to end (so a new turn reads the stopped answer), ms (3 s). */
  stopWaitMs?: number;
}

/** The entry a finished list ends with. */
const endEntry = (end: End) => JSON.stringify({ end });
/** The channel that carries Stop to the replica running the turn. */
const CONTROL = "turn-control";
/** Index buckets: one list per 10 minutes of turn starts, so no list grows without end. */
const BUCKET_MS = 10 * 60_000;
/** Slot hold of the one replica keeping an interrupted answer (renewed while it holds it). */
const SETTLE_HOLD_MS = 30_000;

const recordKey = (chatId: string) => `turn:${chatId}`;
const beatKey = (turnId: string) => `turn-beat:${turnId}`;
const chunksKey = (turnId: string) => `turn-chunks:${turnId}`;
const wakeChannel = (turnId: string) => `turn:${turnId}`;
const indexKey = (bucket: number) => `turn-index:${bucket}`;

function parseRecord(text: string | null): TurnRecord | null {
  if (!text) return null;
  try {
    const record = JSON.parse(text) as TurnRecord;
    return typeof record.turnId === "string" && typeof record.ownerId === "string" ? record : null;
  } catch {
    return null;
  }
}

/** A list's entries as chunks, and how it ended when an end entry is among them (entries after it are ignored). */
function readEntries(entries: string[]): { chunks: UIMessageChunk[]; end: End | null; read: number } {
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

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * One running turn's copy in the coordination: chunks are appended in batches (what arrived while
 * the previous append was under way), in order, each followed by a wake-up. A failed write makes
 * the turn unreplayable (its readers end; the turn itself runs on and is saved as always).
 */
class TurnMirror {
  private pending: UIMessageChunk[] = [];
  private bytes = 0;
  private chain: Promise<void> = Promise.resolve();
  private scheduled = false;
  private unreplayable = false;
  private ended = false;
  private readonly beat: NodeJS.Timeout;

  constructor(
    private readonly owner: SharedTurnBuffer,
    private readonly coordination: Coordination,
    readonly chatId: string,
    readonly record: TurnRecord,
    private readonly limits: { maxBytes: number; maxAgeMs: number; lingerMs: number; beatMs: number; beatTtlMs: number },
  ) {
    this.beat = setInterval(() => void this.renewBeat(), limits.beatMs);
    this.beat.unref();
  }

  /** Write the beat, the record, the index entry and the prefix (the first entry of the list). */
  async open(prefix: UIMessageChunk[]): Promise<void> {
    const { turnId } = this.record;
    try {
      await this.coordination.put(beatKey(turnId), "1", this.limits.beatTtlMs);
      const bucket = Math.floor(Date.now() / BUCKET_MS);
      const entry: IndexEntry = { chatId: this.chatId, turnId, replica: this.record.replica, at: Date.now() };
      await Promise.all([
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
        this.owner.warn("could not mark a finished turn", error);
      } finally {
        this.owner.forgetLocal(this.chatId, turnId);
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
    if (!this.unreplayable) this.owner.warn("a running turn can no longer be replayed on other replicas", error);
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

/** The cluster-mode turn buffer of one replica, over a given coordination (tests pass their own). */
export class SharedTurnBuffer {
  /** This replica's readers of its own turns (the cheap path: no Redis round trip per chunk). */
  private readonly local: TurnBuffer<UIMessageChunk>;
  /** Turns running here: chat id → their mirror. */
  private readonly running = new Map<string, TurnMirror>();
  private readonly limits: Required<Omit<SharedTurnBufferOptions, "replicaId" | "replicaAlive" | "keepInterrupted">>;
  private listening: Promise<() => Promise<void>> | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  /** The sweep's memory: turns the index named, and how far each bucket was read. */
  private readonly known = new Map<string, IndexEntry>();
  private readonly cursors = new Map<number, number>();
  private lastWarned = 0;

  constructor(
    private readonly coordination: Coordination,
    private readonly options: SharedTurnBufferOptions,
  ) {
    this.limits = {
      maxBytes: options.maxBytes ?? 8 * 1024 * 1024,
      lingerMs: options.lingerMs ?? 60_000,
      maxAgeMs: options.maxAgeMs ?? 30 * 60_000,
      beatMs: options.beatMs ?? 1_000,
      beatTtlMs: options.beatTtlMs ?? 3_000,
      pollMs: options.pollMs ?? 500,
      sweepMs: options.sweepMs ?? 2_000,
      stopWaitMs: options.stopWaitMs ?? 3_000,
    };
    this.local = new TurnBuffer<UIMessageChunk>({
      maxBytes: this.limits.maxBytes,
      lingerMs: this.limits.lingerMs,
      maxAgeMs: this.limits.maxAgeMs,
    });
  }

  /**
   * Start consuming `stream` as the turn of `chatId` owned by `ownerId` on this replica and return a
   * live reader of it (as `TurnBuffer.start`). The record, beat and list are written before it
   * returns, so a reader on another replica finds the turn as soon as its first chunk can exist.
   * Without Redis the turn still runs; only its replay elsewhere is lost.
   */
  async start(
    chatId: string,
    ownerId: string,
    stream: ReadableStream<UIMessageChunk>,
    stop: () => void,
    prefix: UIMessageChunk[] = [],
  ): Promise<ReadableStream<UIMessageChunk>> {
    // Normally listening since the process started (lib/runtime/shared-turns.ts); a failure is retried next time.
    this.listen().catch(() => {});
    const record: TurnRecord = { turnId: randomUUID(), ownerId, replica: this.options.replicaId, state: "running" };
    const mirror = new TurnMirror(this, this.coordination, chatId, record, this.limits);
    this.running.set(chatId, mirror);
    await mirror.open(prefix);
    return this.local.start(chatId, ownerId, mirrored(stream, mirror), stop, prefix);
  }

  /**
   * A reader replaying the caller's latest turn of `chatId` from its start and following it, or
   * null when there is none for this owner (or it cannot be replayed). A turn whose replica died is
   * first kept as interrupted; its replay then ends with that mark.
   */
  async resume(chatId: string, ownerId: string): Promise<ReadableStream<UIMessageChunk> | null> {
    const record = parseRecord(await this.coordination.get(recordKey(chatId)));
    // Someone else's chat looks exactly like no turn at all.
    if (!record || record.ownerId !== ownerId || record.unreplayable) return null;
    if (this.running.get(chatId)?.record.turnId === record.turnId) {
      const here = this.local.resume(chatId, ownerId);
      if (here) return here;
    }
    if (record.state === "running" && (await this.runnerGone(chatId, record))) await this.settle(chatId, record.turnId);
    return await this.follow(chatId, record);
  }

  /**
   * Stop the caller's running turn of `chatId` wherever it runs, and wait (at most `stopWaitMs`) until
   * it has ended, so what comes next (a new turn) reads the stopped answer as saved. A turn whose
   * replica died is kept as interrupted instead.
   */
  async stop(chatId: string, ownerId: string): Promise<void> {
    this.local.stop(chatId, ownerId);
    const record = parseRecord(await this.coordination.get(recordKey(chatId)));
    if (!record || record.ownerId !== ownerId || record.state !== "running") return;
    if (record.replica !== this.options.replicaId) {
      await this.coordination.publish(CONTROL, JSON.stringify({ chatId, ownerId, turnId: record.turnId }));
    }
    const deadline = Date.now() + this.limits.stopWaitMs;
    for (;;) {
      const now = parseRecord(await this.coordination.get(recordKey(chatId)));
      if (!now || now.turnId !== record.turnId || now.state !== "running") return;
      if (await this.runnerGone(chatId, now)) {
        await this.settle(chatId, now.turnId);
        return;
      }
      if (Date.now() > deadline) return;
      await sleep(50);
    }
  }

  /**
   * Keep the answer of `chatId`'s running turn (that turn only, when `turnId` is given) if its
   * replica is gone: the partial answer is stored marked interrupted, the list ends with that mark
   * and the record says so. One replica does it (a slot of one in the coordination, and the record
   * checked again under it); true for the call that did.
   */
  async settle(chatId: string, turnId?: string): Promise<boolean> {
    const record = parseRecord(await this.coordination.get(recordKey(chatId)));
    if (record?.state !== "running" || (turnId && record.turnId !== turnId)) return false;
    if (!(await this.runnerGone(chatId, record))) return false;
    const slot = await this.coordination.takeSlot(`turn-settle:${record.turnId}`, 1, SETTLE_HOLD_MS);
    if (!slot) return false;
    try {
      // Under the slot, again: another replica may have kept it just before.
      const current = parseRecord(await this.coordination.get(recordKey(chatId)));
      if (!current || current.turnId !== record.turnId || current.state !== "running") return false;
      const entries = (await this.coordination.range(chunksKey(record.turnId), 0)) ?? [];
      const { chunks, end } = readEntries(entries);
      if (end === "done" || end === "interrupted") return false;
      await this.options.keepInterrupted({ chatId, ownerId: record.ownerId }, chunks, end === null && !record.unreplayable);
      if (end === null) await this.coordination.append(chunksKey(record.turnId), endEntry("interrupted"), this.limits.lingerMs);
      await this.coordination.expire(chunksKey(record.turnId), this.limits.lingerMs);
      await this.coordination.put(recordKey(chatId), JSON.stringify({ ...current, state: "interrupted" }), this.limits.lingerMs);
      await this.coordination.publish(wakeChannel(record.turnId), "");
      return true;
    } finally {
      slot.release();
    }
  }

  /**
   * One round of the sweep: read the turns started since the last round, and keep as interrupted
   * those of replicas whose heartbeat lapsed. Returns how many this replica kept.
   */
  async sweep(): Promise<number> {
    const now = Date.now();
    const first = Math.floor((now - this.limits.maxAgeMs - BUCKET_MS) / BUCKET_MS);
    const last = Math.floor(now / BUCKET_MS);
    for (const bucket of this.cursors.keys()) if (bucket < first) this.cursors.delete(bucket);
    for (let bucket = first; bucket <= last; bucket++) {
      const from = this.cursors.get(bucket) ?? 0;
      const entries = await this.coordination.range(indexKey(bucket), from);
      if (!entries) continue;
      this.cursors.set(bucket, from + entries.length);
      for (const text of entries) {
        const entry = JSON.parse(text) as IndexEntry;
        this.known.set(entry.turnId, entry);
      }
    }
    const alive = new Map<string, boolean>();
    let kept = 0;
    for (const [turnId, entry] of this.known) {
      if (now - entry.at > this.limits.maxAgeMs) {
        this.known.delete(turnId);
        continue;
      }
      if (this.running.get(entry.chatId)?.record.turnId === turnId) continue;
      // This replica's own id names only a turn of an earlier life of it (a restart with the same id).
      if (entry.replica !== this.options.replicaId) {
        if (!alive.has(entry.replica)) alive.set(entry.replica, await this.options.replicaAlive(entry.replica));
        if (alive.get(entry.replica)) continue;
      }
      if (await this.settle(entry.chatId, turnId)) kept++;
      // Kept here or elsewhere, finished, or replaced by a newer turn: nothing more to watch.
      const record = parseRecord(await this.coordination.get(recordKey(entry.chatId)));
      if (!record || record.turnId !== turnId || record.state !== "running") this.known.delete(turnId);
    }
    return kept;
  }

  /** Sweep every `sweepMs` from now on (the timer never keeps the process alive). */
  startSweeping(): void {
    if (this.sweepTimer) return;
    let sweeping = false;
    this.sweepTimer = setInterval(() => {
      // Listening for Stop failed while Redis was away: try again.
      this.listen().catch(() => {});
      if (sweeping) return;
      sweeping = true;
      this.sweep()
        .catch((error) => this.warn("the sweep of interrupted turns failed", error))
        .finally(() => {
          sweeping = false;
        });
    }, this.limits.sweepMs);
    this.sweepTimer.unref();
  }

  /** Hear Stop for turns running here (once; retried on the next call after a failure). */
  listen(): Promise<() => Promise<void>> {
    this.listening ??= this.coordination
      .subscribe(CONTROL, (message) => {
        const { chatId, ownerId, turnId } = JSON.parse(message) as { chatId: string; ownerId: string; turnId?: string };
        const mirror = this.running.get(chatId);
        if (mirror && (!turnId || mirror.record.turnId === turnId)) this.local.stop(chatId, ownerId);
      })
      .catch((error: unknown) => {
        this.listening = null;
        throw error;
      });
    return this.listening;
  }

  /** Stop sweeping and listening (tests; the process's coordination closes with the process). */
  async close(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
    const listening = this.listening;
    this.listening = null;
    // Not awaited: an unsubscribe queues until Redis answers, and closing must not wait for it.
    void listening?.then((unsubscribe) => unsubscribe()).catch(() => {});
  }

  /** Turns running on this replica (tests). */
  get runningHere(): number {
    return this.running.size;
  }

  /** @internal A turn of this replica ended (its mirror says so). */
  forgetLocal(chatId: string, turnId: string): void {
    if (this.running.get(chatId)?.record.turnId === turnId) this.running.delete(chatId);
  }

  /** @internal A warning at most every five seconds (a Redis outage fails every turn at once). */
  warn(what: string, error: unknown): void {
    if (Date.now() - this.lastWarned < 5_000) return;
    this.lastWarned = Date.now();
    console.warn(`[switchboard] ${what}:`, error instanceof Error ? error.message : String(error));
  }

  /** Whether the replica running `record`'s turn is gone: not this one, and the turn's beat lapsed. */
  private async runnerGone(chatId: string, record: TurnRecord): Promise<boolean> {
    if (this.running.get(chatId)?.record.turnId === record.turnId) return false;
    return (await this.coordination.get(beatKey(record.turnId))) === null;
  }

  /**
   * A reader of `record`'s list from its first entry: it reads what is there, then waits for a
   * wake-up (subscribed before the first read, so an append between the read and the wait is never
   * missed) or `pollMs`, after which it checks that the turn's replica is alive, and keeps the
   * answer as interrupted when it is not.
   */
  private async follow(chatId: string, record: TurnRecord): Promise<ReadableStream<UIMessageChunk> | null> {
    const key = chunksKey(record.turnId);
    let woken = false;
    let wake: (() => void) | null = null;
    const unsubscribe = await this.coordination.subscribe(wakeChannel(record.turnId), () => {
      woken = true;
      wake?.();
    });
    let position = 0;
    let queue: UIMessageChunk[] = [];
    let end: End | "gone" | null = null;
    let closed = false;
    const close = async () => {
      if (closed) return;
      closed = true;
      wake?.();
      // Not awaited: while Redis is away an unsubscribe waits for it, and the reader is gone already.
      unsubscribe().catch(() => {});
    };
    const read = async () => {
      woken = false;
      const entries = await this.coordination.range(key, position);
      if (entries === null) {
        end = "gone";
        return;
      }
      const got = readEntries(entries);
      position += got.read;
      queue = queue.concat(got.chunks);
      end = got.end;
    };
    // The first read answers here: a list already gone (expired, Redis restarted) is no turn to resume.
    try {
      await read();
    } catch (error) {
      await close();
      throw error;
    }
    if (end === "gone" || end === "unreplayable") {
      await close();
      return null;
    }
    return new ReadableStream<UIMessageChunk>(
      {
        pull: async (controller) => {
          try {
            for (;;) {
              if (closed) return;
              const next = queue.shift();
              if (next) {
                controller.enqueue(next);
                return;
              }
              if (end) {
                // The page learns the answer was kept as interrupted (and refreshes from the database).
                if (end === "interrupted") controller.enqueue({ type: "finish", messageMetadata: { interrupted: true } });
                controller.close();
                await close();
                return;
              }
              if (!woken) {
                let timer: NodeJS.Timeout | undefined;
                const timedOut = await new Promise<boolean>((resolve) => {
                  wake = () => resolve(false);
                  timer = setTimeout(() => resolve(true), this.limits.pollMs);
                });
                clearTimeout(timer);
                wake = null;
                if (closed) return;
                if (timedOut && !woken && (await this.runnerGone(chatId, record))) await this.settle(chatId, record.turnId);
              }
              await read();
            }
          } catch (error) {
            await close();
            controller.error(error);
          }
        },
        cancel: close,
      },
      // Pull only when read: the reader's pace, never a growing queue in memory.
      { highWaterMark: 0 },
    );
  }
}

/** `stream` passed through, each chunk also handed to `mirror`; its end (or failure) ends the mirror. */
function mirrored(stream: ReadableStream<UIMessageChunk>, mirror: TurnMirror): ReadableStream<UIMessageChunk> {
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
