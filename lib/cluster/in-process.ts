/**
 * Single-node coordination: the state lives in this process's memory, as before cluster mode. One
 * process serves the instance, so memory is the truth; messages go to this process's subscribers.
 */
import type { Coordination, MessageHandler, Slot, Tally, WindowHit } from "./coordination";

interface Expiring<T> {
  value: T;
  until: number;
}

/** The in-memory `Coordination` (`now` is replaceable for tests). */
export class InProcessCoordination implements Coordination {
  readonly clustered = false;
  /** This process's memory is always there. */
  readonly available = true;
  private readonly held = new Map<string, number>();
  private readonly windows = new Map<string, { times: number[]; head: number }>();
  private readonly tallies = new Map<string, Expiring<Tally>>();
  private readonly values = new Map<string, Expiring<string>>();
  private readonly lists = new Map<string, Expiring<string[]>>();
  private readonly channels = new Map<string, Set<MessageHandler>>();
  private swept = 0;

  constructor(private readonly now: () => number = Date.now) {}

  async takeSlot(key: string, limit: number): Promise<Slot | null> {
    return this.takeSlotNow(key, limit);
  }

  /** `takeSlot` without the promise, for callers on a synchronous path. */
  takeSlotNow(key: string, limit: number): Slot | null {
    const current = this.held.get(key) ?? 0;
    if (current >= limit) return null;
    this.held.set(key, current + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        const left = (this.held.get(key) ?? 1) - 1;
        if (left <= 0) this.held.delete(key);
        else this.held.set(key, left);
      },
    };
  }

  /**
   * Each key keeps its hits oldest first and drops expired ones from the front, so a hit costs the
   * same however many the window holds (a busy user makes thousands a minute).
   */
  async hitWindow(key: string, limit: number, windowMs: number): Promise<WindowHit> {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window) {
      window = { times: [], head: 0 };
      this.windows.set(key, window);
    }
    const { times } = window;
    while (window.head < times.length && now - times[window.head] >= windowMs) window.head++;
    // Drop the expired front once it is at least half the array: amortised O(1) per hit.
    if (window.head > 0 && window.head * 2 >= times.length) {
      times.splice(0, window.head);
      window.head = 0;
    }
    const count = times.length - window.head;
    if (count >= limit) return { wait: Math.max(1, times[window.head] + windowMs - now), count };
    times.push(now);
    return { wait: 0, count: count + 1 };
  }

  async tally(key: string, at: number, ttlMs: number): Promise<Tally> {
    const entry = this.live(this.tallies, key);
    const value = { count: (entry?.value.count ?? 0) + 1, at };
    this.tallies.set(key, { value, until: this.now() + ttlMs });
    this.sweep();
    return { ...value };
  }

  async untally(key: string): Promise<void> {
    const entry = this.live(this.tallies, key);
    if (entry) entry.value.count = Math.max(0, entry.value.count - 1);
  }

  async readTally(key: string): Promise<Tally | null> {
    const entry = this.live(this.tallies, key);
    return entry ? { ...entry.value } : null;
  }

  async put(key: string, value: string, ttlMs: number): Promise<void> {
    this.values.set(key, { value, until: this.now() + ttlMs });
    this.sweep();
  }

  async get(key: string): Promise<string | null> {
    return this.live(this.values, key)?.value ?? null;
  }

  async take(key: string): Promise<string | null> {
    const value = this.live(this.values, key)?.value ?? null;
    this.values.delete(key);
    return value;
  }

  async drop(key: string): Promise<void> {
    this.values.delete(key);
    this.tallies.delete(key);
    this.lists.delete(key);
  }

  async append(key: string, entry: string, ttlMs: number): Promise<number> {
    const list = this.live(this.lists, key) ?? { value: [], until: 0 };
    list.value.push(entry);
    list.until = this.now() + ttlMs;
    this.lists.set(key, list);
    this.sweep();
    return list.value.length - 1;
  }

  async range(key: string, from: number): Promise<string[] | null> {
    const list = this.live(this.lists, key);
    return list ? list.value.slice(from) : null;
  }

  async expire(key: string, ttlMs: number): Promise<void> {
    for (const map of [this.values, this.tallies, this.lists] as Map<string, Expiring<unknown>>[]) {
      const entry = this.live(map, key);
      if (entry) entry.until = this.now() + ttlMs;
    }
  }

  async publish(channel: string, message: string): Promise<void> {
    for (const handler of this.channels.get(channel) ?? []) {
      try {
        handler(message);
      } catch (error) {
        console.warn(`a subscriber of ${channel} failed`, String(error));
      }
    }
  }

  async subscribe(channel: string, handler: MessageHandler): Promise<() => Promise<void>> {
    const set = this.channels.get(channel) ?? new Set<MessageHandler>();
    this.channels.set(channel, set);
    set.add(handler);
    return async () => {
      set.delete(handler);
      if (set.size === 0 && this.channels.get(channel) === set) this.channels.delete(channel);
    };
  }

  async close(): Promise<void> {}

  private live<T>(map: Map<string, Expiring<T>>, key: string): Expiring<T> | undefined {
    const entry = map.get(key);
    if (entry && entry.until <= this.now()) {
      map.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Forget expired values and tallies now and then, so keys never read again do not pile up. */
  private sweep(): void {
    const now = this.now();
    if (now - this.swept < 60_000) return;
    this.swept = now;
    for (const map of [this.values, this.tallies, this.lists] as Map<string, Expiring<unknown>>[]) {
      for (const [key, entry] of map) if (entry.until <= now) map.delete(key);
    }
  }
}
