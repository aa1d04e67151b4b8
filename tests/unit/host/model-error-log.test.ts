import { describe, expect, it } from "vitest";
import { logModelError, modelErrorKind } from "@/lib/runtime/model-error-log";
import { LogThrottle } from "@/lib/mcp/log-throttle";

function providerError(status: number, message: string): Error {
  return Object.assign(new Error(message), { name: "AI_APICallError", statusCode: status });
}

describe("logModelError", () => {
  it("logs one line per kind per interval, never a stack, and counts what it held back", () => {
    let now = 0;
    const gate = new LogThrottle(60_000, () => now);
    const lines: string[] = [];
    const log = (line: string) => lines.push(line);
    const error = providerError(400, "tool unknown_tool not found\n    at stack frame one\n    at stack frame two");
    for (let i = 0; i < 100; i++) logModelError("sampling model request", error, log, gate);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe("[switchboard] sampling model request failed: AI_APICallError:400: tool unknown_tool not found");
    // Another kind is not held back by the first.
    logModelError("sampling model request", providerError(500, "upstream down"), log, gate);
    expect(lines).toHaveLength(2);
    now = 60_001;
    logModelError("sampling model request", error, log, gate);
    expect(lines[2]).toContain("(99 more of this kind since the last line)");
  });

  it("redacts credentials in the line", () => {
    const lines: string[] = [];
    logModelError(
      "sampling model request",
      new Error("bad key sk-proj-abcdefghijklmnopqrstuvwxyz012345"),
      (l) => lines.push(l),
      new LogThrottle(),
    );
    expect(lines[0]).not.toContain("abcdefghijklmnopqrstuvwxyz012345");
  });

  it("names the kind by class and provider status", () => {
    expect(modelErrorKind(providerError(429, "slow down"))).toBe("AI_APICallError:429");
    expect(modelErrorKind(new TypeError("x"))).toBe("TypeError");
    expect(modelErrorKind("text")).toBe("string");
  });
});
