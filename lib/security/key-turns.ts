/**
 * One at a time per key, on every replica: work that reads a count and then counts (a throttle's
 * check and its attempt) runs holding its keys' turns, so a parallel burst is decided attempt by
 * attempt and cannot slip through between the read and the count. Within this process a queue per
 * key orders the waiters; in cluster mode each turn is also a slot of one in the coordination
 * (lib/cluster), taken in turn by the replicas.
 */
import { type Coordination, coordination } from "../cluster";
import { AppError } from "../errors";

/** A turn outlives a holder that died by at most this (a live holder keeps it for milliseconds). */
const TURN_HOLD_MS = 5_000;
/**
 * How long an attempt waits for another replica's turn on the same key before it is refused: longer
 * than a dead holder keeps a turn (TURN_HOLD_MS), so a waiter is refused only when turns really pile
 * up. At 2 s, eight sign-ups sent at once from one address through two replicas of a loaded
 * machine had some refused while each waited in line behind the others (each turn is a few Redis
 * round trips).
 */
export const TURN_WAIT_MS = 8_000;
/** How often a waiter asks again for another replica's turn. */
const TURN_POLL_MS = 10;

/** Turns per key: `run` holds every one of its keys while its work runs. */
export class KeyTurns {
  // The last waiter's promise per key in this process (deleted once nobody waits).
  private readonly tails = new Map<string, Promise<void>>();

  /** `store` gives the coordination at each use. Default: the process's. */
  constructor(private readonly store: () => Coordination = coordination) {}

  /**
   * Run `work` holding the turns of `keys`, taken in the order given (every caller must name its
   * keys in one order, so two never wait for each other). Rejects with 429 `auth.rate_limited`
   * when another replica held a turn for longer than an attempt takes.
   */
  async run<T>(keys: string[], work: () => Promise<T>): Promise<T> {
    const held: (() => void)[] = [];
    try {
      for (const key of keys) held.push(await this.take(key));
      return await work();
    } finally {
      for (const release of held.reverse()) release();
    }
  }

  private async take(key: string): Promise<() => void> {
    const local = await this.local(key);
    const store = this.store();
    if (!store.clustered) return local;
    try {
      const deadline = Date.now() + TURN_WAIT_MS;
      for (;;) {
        const slot = await store.takeSlot(`turn:${key}`, 1, TURN_HOLD_MS);
        if (slot) {
          return () => {
            slot.release();
            local();
          };
        }
        if (Date.now() >= deadline)
          throw new AppError("auth.rate_limited", "Too many attempts; wait a moment and try again.", undefined, 1);
        await new Promise((resolve) => setTimeout(resolve, TURN_POLL_MS));
      }
    } catch (error) {
      local();
      throw error;
    }
  }

  /** This process's turn of `key`: resolves once every earlier waiter released its own. */
  private async local(key: string): Promise<() => void> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release = () => {};
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => mine);
    this.tails.set(key, tail);
    await previous;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    };
  }
}
