/** Validation failures in one line (lib/mcp/issue-line.ts): the field at fault, never a dump. */
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { errorResponse } from "@/lib/http";
import { flattenIssueDump, issuesLine, zodErrorLine } from "@/lib/mcp/issue-line";

describe("issue lines", () => {
  it("names the first field and counts the rest", () => {
    const parsed = z.object({ a: z.object({ b: z.string() }), c: z.number() }).safeParse({ a: { b: 1 }, c: "x" });
    if (parsed.success) throw new Error("expected a failure");
    expect(zodErrorLine(parsed.error)).toMatch(/^`a\.b`: .+ \(and 1 more problem\)$/);
    expect(issuesLine([])).toBe("invalid value");
  });

  it("replaces an issue list embedded as indented JSON, and leaves other text alone", () => {
    const dump = `Invalid result for tools/list: ${JSON.stringify([{ code: "invalid_type", path: ["tools"], message: "expected array" }], null, 2)}`;
    expect(flattenIssueDump(dump)).toBe("Invalid result for tools/list: `tools`: expected array");
    for (const text of ["plain failure", "list [ {not json", 'array [{"no":"message"}]']) expect(flattenIssueDump(text)).toBe(text);
  });

  it("is not fooled by an error that only looks like Zod's", () => {
    expect(zodErrorLine(new Error("ZodError"))).toBeUndefined();
    expect(zodErrorLine({ name: "ZodError", issues: [] })).toBeUndefined();
  });

  it("logs a Zod error that reaches a route as one line naming the field", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const parsed = z.object({ password: z.string().min(20) }).safeParse({ password: "short" });
      if (parsed.success) throw new Error("expected a failure");
      expect((await errorResponse(parsed.error).json()).code).toBe("internal.error");
      const line = String(log.mock.calls[0]?.[1]);
      expect(line).toMatch(/^ZodError: `password`: /);
      expect(line).not.toMatch(/[\r\n]/);
    } finally {
      log.mockRestore();
    }
  });
});
