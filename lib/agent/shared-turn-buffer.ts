/**
 * Resumable chat turns in cluster mode (docs/chat.md#in-cluster-mode): the turn runs on the replica
 * that took its request, in that replica's in-memory `TurnBuffer` (its own readers follow it there),
 * and its UI chunks are also appended to a list in the coordination (`turn-mirror.ts` describes the
 * keys), so a reader on any replica replays the answer from its start and follows it; Stop reaches
 * the replica running it through the `turn-control` channel; and when that replica dies, another
 * keeps the partial answer, marked interrupted, exactly once — a reader that sees the turn's beat
 * lapse, the chat's page as it loads, a new message, or the sweep of dead replicas' turns.
 */
import { randomUUID } from "node:crypto";
import type { UIMessageChunk } from "ai";
import type { Coordination } from "../cluster/coordination";
import { TurnBuffer } from "./turn-buffer";
import {
  BUCKET_MS,
  beatKey,
  chunksKey,
  type End,
  endEntry,
  type IndexEntry,
  indexKey,
  type MirrorHooks,
  mirrored,
  parseRecord,
  readEntries,
  type TurnRecord,
  TurnMirror,
  wakeChannel,
  recordKey,
} from "./turn-mirror";
import { describeDatabaseFailure } from "../../db/unavailable";

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

/** The channel that carries Stop to the replica running the turn. */
const CONTROL = "turn-control";
/** Slot hold of the one replica keeping an interrupted answer (renewed while it holds it). */
const SETTLE_HOLD_MS = 30_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

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
  /** What this replica's mirrors report: a failed write (warned at most every five seconds, as a Redis outage fails every turn at once), a turn that ended. */
  private readonly hooks: MirrorHooks = {
    warn: (what, error) => {
      if (Date.now() - this.lastWarned < 5_000) return;
      this.lastWarned = Date.now();
      console.warn(`[switchboard] ${what}:`, describeDatabaseFailure(error));
    },
    ended: (chatId, turnId) => {
      if (this.running.get(chatId)?.record.turnId === turnId) this.running.delete(chatId);
    },
  };

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
    const mirror = new TurnMirror(this.hooks, this.coordination, chatId, record, this.limits);
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
        .catch((error) => this.hooks.warn("the sweep of interrupted turns failed", error))
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
