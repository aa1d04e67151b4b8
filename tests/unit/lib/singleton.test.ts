/** One registry for process-wide state: created once, shared across module copies, cleared on demand. */
import { describe, expect, it } from "vitest";
import { clearSingleton, peekSingleton, singleton } from "@/lib/singleton";

describe("singleton", () => {
  it("creates a value once and returns the same one afterwards", () => {
    let made = 0;
    const first = singleton("test.once", () => ({ n: ++made }));
    const second = singleton("test.once", () => ({ n: ++made }));
    expect(second).toBe(first);
    expect(made).toBe(1);
    clearSingleton("test.once");
  });

  it("keeps values on globalThis, so a re-evaluated module finds the same registry", () => {
    const value = singleton("test.global", () => "shared");
    const registry = (globalThis as Record<symbol, Map<string, unknown>>)[Symbol.for("switchboard.singletons")];
    expect(registry.get("test.global")).toBe(value);
    clearSingleton("test.global");
  });

  it("clears a value and hands it back so the caller can close it", () => {
    singleton("test.clear", () => 42);
    expect(peekSingleton("test.clear")).toBe(42);
    expect(clearSingleton("test.clear")).toBe(42);
    expect(peekSingleton("test.clear")).toBeUndefined();
    expect(singleton("test.clear", () => 7)).toBe(7);
    clearSingleton("test.clear");
  });
});
