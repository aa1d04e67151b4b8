/** The pure rules of task calls (docs/protocol.md#tasks): when a call goes as a task, and the poll interval bounds. */
import { describe, expect, it } from "vitest";
import type { ServerCapabilities, Tool } from "@modelcontextprotocol/client";
import { pollDelay, shouldCallAsTask, TASK_POLL_BOUNDS_MS, taskSupportOf } from "@/lib/mcp/tasks";

const offers = { tasks: { requests: { tools: { call: {} } } } } as ServerCapabilities;
const tool = (taskSupport?: string) =>
  ({ name: "t", inputSchema: { type: "object" }, ...(taskSupport ? { execution: { taskSupport } } : {}) }) as Tool;

describe("task calls", () => {
  it.each([
    ["required", "legacy", offers, false, true],
    ["optional", "legacy", offers, false, false],
    ["optional", "legacy", offers, true, true],
    ["forbidden", "legacy", offers, true, false],
    ["required", "legacy", {}, false, false],
    ["required", "modern", offers, false, false],
    ["required", undefined, offers, false, false],
  ] as const)("%s on %s (server offers: %o, asked: %s) → %s", (support, era, caps, asked, expected) => {
    expect(shouldCallAsTask(support, era, caps, asked)).toBe(expected);
  });

  it("reads execution.taskSupport, absent or unknown meaning forbidden", () => {
    expect(taskSupportOf(tool("required"))).toBe("required");
    expect(taskSupportOf(tool("optional"))).toBe("optional");
    expect(taskSupportOf(tool("sometimes"))).toBe("forbidden");
    expect(taskSupportOf(tool())).toBe("forbidden");
    expect(taskSupportOf(undefined)).toBe("forbidden");
  });

  it("honours the server's poll interval within bounds", () => {
    expect(pollDelay(2000)).toBe(2000);
    expect(pollDelay(0)).toBe(TASK_POLL_BOUNDS_MS.min);
    expect(pollDelay(3_600_000)).toBe(TASK_POLL_BOUNDS_MS.max);
    expect(pollDelay(undefined)).toBe(TASK_POLL_BOUNDS_MS.fallback);
    expect(pollDelay(Number.NaN)).toBe(TASK_POLL_BOUNDS_MS.fallback);
  });
});
