/** Bounds on completion answers and template variable names (lib/mcp/completions.ts). */
import { describe, expect, it } from "vitest";
import { boundCompletion, MAX_COMPLETION_LENGTH, MAX_COMPLETION_VALUES, templateVariables } from "@/lib/mcp/completions";

describe("completions", () => {
  it("keeps at most 100 values, drops over-long ones, and says there is more", () => {
    const values = [...Array.from({ length: 150 }, (_, i) => `v${i}`), "x".repeat(MAX_COMPLETION_LENGTH + 1)];
    const bounded = boundCompletion({ completion: { values, total: 151, hasMore: false } });
    expect(bounded.completion.values).toHaveLength(MAX_COMPLETION_VALUES);
    expect(bounded.completion.hasMore).toBe(true);
    expect(bounded.completion.total).toBe(151);
    expect(boundCompletion({ completion: { values: ["a"] } }).completion).toEqual({ values: ["a"], hasMore: false });
  });

  it("reads a URI template's variables", () => {
    expect(templateVariables("demo://x/{a}/{b}{?q}")).toEqual(["a", "b", "q"]);
  });
});
