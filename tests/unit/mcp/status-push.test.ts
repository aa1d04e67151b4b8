import { describe, expect, it } from "vitest";
import type { Clock } from "@/lib/mcp/clock";
import { StatusPush } from "@/lib/mcp/status-push";

// A clock whose timers fire only when the test moves time on.
function fakeClock() {
  let time = 0;
  let timers: { at: number; fn: () => void; id: number }[] = [];
  let nextId = 0;
  const clock: Clock = {
    now: () => time,
    setTimeout: (fn, ms) => {
      timers.push({ at: time + ms, fn, id: ++nextId });
      return nextId;
    },
    clearTimeout: (handle) => {
      timers = timers.filter((t) => t.id !== handle);
    },
  };
  const advance = (ms: number) => {
    time += ms;
    const due = timers.filter((t) => t.at <= time);
    timers = timers.filter((t) => t.at > time);
    for (const t of due) t.fn();
  };
  return { clock, advance, pending: () => timers.length };
}

describe("status push", () => {
  it("pushes new call figures at most once per interval", () => {
    const { clock, advance } = fakeClock();
    let pushes = 0;
    const push = new StatusPush(clock, 1000, () => pushes++);
    for (let i = 0; i < 500; i++) push.soon();
    expect(pushes).toBe(0);
    advance(999);
    expect(pushes).toBe(0);
    advance(1);
    expect(pushes).toBe(1);
    push.soon();
    advance(1000);
    expect(pushes).toBe(2);
  });

  it("pushes a state change at once, folding in the figures still waiting", () => {
    const { clock, advance, pending } = fakeClock();
    let pushes = 0;
    const push = new StatusPush(clock, 1000, () => pushes++);
    push.soon();
    push.now();
    expect(pushes).toBe(1);
    expect(pending()).toBe(0);
    advance(2000);
    expect(pushes).toBe(1);
  });

  it("schedules no figures while nobody watches, and state changes still go out", () => {
    const { clock, advance, pending } = fakeClock();
    let pushes = 0;
    let watched = false;
    const push = new StatusPush(
      clock,
      1000,
      () => pushes++,
      () => watched,
    );
    for (let i = 0; i < 500; i++) push.soon();
    expect(pending()).toBe(0);
    advance(2000);
    expect(pushes).toBe(0);
    push.now();
    expect(pushes).toBe(1);
    watched = true;
    push.soon();
    advance(1000);
    expect(pushes).toBe(2);
  });

  it("schedules nothing without a hook", () => {
    const { clock, pending } = fakeClock();
    const push = new StatusPush(clock, 1000, undefined);
    push.soon();
    push.now();
    expect(pending()).toBe(0);
  });
});
