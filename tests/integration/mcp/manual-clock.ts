/**
 * A manual clock for the engine's integration tests: timers fire only when the test advances time,
 * while the servers and sockets run in real time (so a test awaits their effects with `waitUntil`).
 */
import type { Clock } from "@/lib/mcp/clock";

/** Clock whose timers fire in order when `advance` passes their time. */
export class ManualClock implements Clock {
  time = 1_700_000_000_000;
  private timers: { at: number; fn: () => void; id: number }[] = [];
  private nextId = 0;
  now = () => this.time;
  setTimeout = (fn: () => void, ms: number) => {
    const id = ++this.nextId;
    this.timers.push({ at: this.time + ms, fn, id });
    return id;
  };
  clearTimeout = (handle: unknown) => {
    this.timers = this.timers.filter((t) => t.id !== handle);
  };

  /** Timers waiting to fire. */
  get pending(): number {
    return this.timers.length;
  }

  /** Move time forward by `ms`, firing every timer due by then (one at a time, earliest first). */
  advance(ms: number): void {
    const target = this.time + ms;
    for (;;) {
      const next = this.timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!next) break;
      this.timers = this.timers.filter((t) => t !== next);
      this.time = Math.max(this.time, next.at);
      next.fn();
    }
    this.time = target;
  }
}
