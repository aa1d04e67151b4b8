/**
 * Requests from servers that wait for one user's answer in the browser (elicitations, sampling
 * reviews): keyed by user so nobody sees or answers another's, settled once, cancelled when the
 * server aborts, answered with a fallback when they expire, and withdrawn when their server is
 * removed (an answer to a withdrawn request is never delivered). The queue holds what waits on this
 * process's MCP connections; with a `PendingRecord` (lib/runtime/question-desk.ts) each request is
 * also a database row that any replica lists and answers.
 */
import { randomUUID } from "node:crypto";

/** How a request was settled on this replica. */
export type Settled = "answered" | "cancelled" | "expired" | "withdrawn";

/** Where a queue writes its requests down (lib/runtime/question-desk.ts). */
export interface PendingRecord<View> {
  /** A request was parked: record it; a rejection refuses the request with that error. */
  parked(request: { id: string; userId: string; view: View; expiresAt: number }): Promise<void>;
  /** A request settled here, how. */
  settled(id: string, how: Settled): void;
}

interface Entry<View, Answer> {
  view: View & { id: string; createdAt: number };
  userId: string;
  settle: (answer: Answer, how: Settled) => void;
}

/** A per-user queue of pending requests of one kind. */
export class PendingRequests<View extends object, Answer> {
  private readonly entries = new Map<string, Entry<View, Answer>>();
  private record: PendingRecord<View> | null = null;

  /** `onAbort` / `onExpire`: the answer given when the server cancels or nobody answers in `ttlMs`. */
  constructor(
    readonly ttlMs: number,
    private readonly onAbort: Answer,
    private readonly onExpire: Answer,
  ) {}

  /** Write every request parked from now on to `record` as well (the app's queues: question-desk.ts). */
  recordTo(record: PendingRecord<View>): void {
    this.record = record;
  }

  /** Park a request until its user answers; resolves with that answer. */
  wait(userId: string, view: View, signal: AbortSignal): Promise<Answer> {
    const id = randomUUID();
    const createdAt = Date.now();
    const answered = new Promise<Answer>((resolve) => {
      const timer = setTimeout(() => settle(this.onExpire, "expired"), this.ttlMs);
      timer.unref?.();
      const abort = () => settle(this.onAbort, "cancelled");
      const settle = (answer: Answer, how: Settled) => {
        if (!this.entries.delete(id)) return;
        clearTimeout(timer);
        signal.removeEventListener("abort", abort);
        this.record?.settled(id, how);
        resolve(answer);
      };
      if (signal.aborted) return resolve(this.onAbort);
      signal.addEventListener("abort", abort, { once: true });
      this.entries.set(id, { view: { ...view, id, createdAt }, userId, settle });
    });
    const record = this.record;
    if (!record || !this.entries.has(id)) return answered;
    // A request that cannot be written down is refused at once, rather than waiting its time unseen.
    return record.parked({ id, userId, view, expiresAt: createdAt + this.ttlMs }).then(
      () => answered,
      (error: unknown) => {
        this.entries.get(id)?.settle(this.onAbort, "cancelled");
        throw error;
      },
    );
  }

  /** The user's pending requests, oldest first. */
  list(userId: string): (View & { id: string; createdAt: number })[] {
    return [...this.entries.values()]
      .filter((e) => e.userId === userId)
      .map((e) => e.view)
      .sort((a, b) => a.createdAt - b.createdAt);
  }

  /**
   * Withdraw every request matching `match` (its server was deleted, disabled or edited, or its user
   * lost access): each is settled with the abort answer and its id stops accepting answers.
   */
  withdraw(match: (view: View & { id: string; createdAt: number }, userId: string) => boolean): number {
    let count = 0;
    for (const entry of [...this.entries.values()]) {
      if (!match(entry.view, entry.userId)) continue;
      entry.settle(this.onAbort, "withdrawn");
      count++;
    }
    return count;
  }

  /** How many requests `userId` has waiting. */
  countFor(userId: string): number {
    let count = 0;
    for (const entry of this.entries.values()) if (entry.userId === userId) count++;
    return count;
  }

  /** Settle one of the user's requests; false when there is no such request for this user. */
  answer(userId: string, id: string, answer: Answer): boolean {
    const entry = this.entries.get(id);
    if (!entry || entry.userId !== userId) return false;
    entry.settle(answer, "answered");
    return true;
  }

  /** Whether request `id` waits here. */
  holds(id: string): boolean {
    return this.entries.has(id);
  }

  /** The ids of every request waiting here. */
  heldIds(): string[] {
    return [...this.entries.keys()];
  }

  /**
   * Settle request `id` with `answer` whoever's it is (the desk checked its row: it is the user's),
   * or with the abort answer when `answer` is null; false when it no longer waits here.
   */
  settleHeld(id: string, answer: Answer | null): boolean {
    const entry = this.entries.get(id);
    if (!entry) return false;
    if (answer === null) entry.settle(this.onAbort, "withdrawn");
    else entry.settle(answer, "answered");
    return true;
  }
}
