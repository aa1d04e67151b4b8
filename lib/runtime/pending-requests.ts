/**
 * Requests from servers that wait for one user's answer in the browser (elicitations, sampling
 * reviews): keyed by user so nobody sees or answers another's, settled once, cancelled when the
 * server aborts, answered with a fallback when they expire, and withdrawn when their server is
 * removed (an answer to a withdrawn request is never delivered).
 */
import { randomUUID } from "node:crypto";

interface Entry<View, Answer> {
  view: View & { id: string; createdAt: number };
  userId: string;
  settle: (answer: Answer) => void;
}

/** A per-user queue of pending requests of one kind. */
export class PendingRequests<View extends object, Answer> {
  private readonly entries = new Map<string, Entry<View, Answer>>();

  /** `onAbort` / `onExpire`: the answer given when the server cancels or nobody answers in `ttlMs`. */
  constructor(
    private readonly ttlMs: number,
    private readonly onAbort: Answer,
    private readonly onExpire: Answer,
  ) {}

  /** Park a request until its user answers; resolves with that answer. */
  wait(userId: string, view: View, signal: AbortSignal): Promise<Answer> {
    const id = randomUUID();
    return new Promise<Answer>((resolve) => {
      const timer = setTimeout(() => settle(this.onExpire), this.ttlMs);
      timer.unref?.();
      const abort = () => settle(this.onAbort);
      const settle = (answer: Answer) => {
        if (!this.entries.delete(id)) return;
        clearTimeout(timer);
        signal.removeEventListener("abort", abort);
        resolve(answer);
      };
      if (signal.aborted) return resolve(this.onAbort);
      signal.addEventListener("abort", abort, { once: true });
      this.entries.set(id, { view: { ...view, id, createdAt: Date.now() }, userId, settle });
    });
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
      entry.settle(this.onAbort);
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
    entry.settle(answer);
    return true;
  }
}
