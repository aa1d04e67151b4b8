import { describe, expect, it } from "vitest";
import { DENIED_BY_POLICY, approvalStatus, defaultPolicy, effectivePolicy } from "@/lib/agent/policy";

describe("tool approval policy", () => {
  it.each([
    [undefined, "ask"],
    [{}, "ask"],
    [{ readOnlyHint: false }, "ask"],
    [{ readOnlyHint: true }, "allow"],
    [{ readOnlyHint: true, destructiveHint: true }, "allow"],
    [{ destructiveHint: false }, "ask"],
  ] as const)("default for annotations %j is %s", (annotations, expected) => {
    expect(defaultPolicy(annotations)).toBe(expected);
  });

  it("a stored choice always wins over the server's hint", () => {
    expect(effectivePolicy("ask", { readOnlyHint: true })).toBe("ask");
    expect(effectivePolicy("deny", { readOnlyHint: true })).toBe("deny");
    expect(effectivePolicy("allow", undefined)).toBe("allow");
    expect(effectivePolicy(undefined, { readOnlyHint: true })).toBe("allow");
  });

  it("maps policies to AI SDK approval statuses", () => {
    expect(approvalStatus("allow")).toEqual({ type: "not-applicable" });
    expect(approvalStatus("ask")).toEqual({ type: "user-approval" });
    expect(approvalStatus("deny")).toEqual({ type: "denied", reason: DENIED_BY_POLICY });
  });
});
