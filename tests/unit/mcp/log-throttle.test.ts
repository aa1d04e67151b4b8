/** LogThrottle: the first line of a kind, then one per interval carrying how many were held back. */
import { describe, expect, it } from "vitest";
import { LogThrottle } from "@/lib/mcp/log-throttle";

describe("LogThrottle", () => {
  it("lets one line per key per interval through and counts the rest", () => {
    let now = 0;
    const throttle = new LogThrottle(1000, () => now);
    expect(throttle.take("garbage")).toEqual({ log: true, held: 0 });
    expect(throttle.take("garbage").log).toBe(false);
    expect(throttle.take("garbage").log).toBe(false);
    expect(throttle.take("other")).toEqual({ log: true, held: 0 });
    now = 999;
    expect(throttle.take("garbage").log).toBe(false);
    now = 1000;
    expect(throttle.take("garbage")).toEqual({ log: true, held: 3 });
    expect(throttle.take("garbage").log).toBe(false);
  });

  it("stays bounded however many keys a server invents", () => {
    const throttle = new LogThrottle(1000, () => 0);
    for (let i = 0; i < 5000; i++) throttle.take(`k${i}`);
    expect((throttle as unknown as { last: Map<string, unknown> }).last.size).toBeLessThanOrEqual(1000);
  });
});
