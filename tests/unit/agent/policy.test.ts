import { describe, expect, it } from "vitest";
import { DENIED_BY_POLICY, approvalStatus, defaultPolicy, effectivePolicy, policyHints, policyToolName } from "@/lib/agent/policy";
import { chatErrorText } from "@/lib/agent/run-chat";

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

describe("wrapper tools and error texts", () => {
  it("keeps wrapper policies apart from server tools and defaults them to allow", () => {
    expect(policyToolName({ kind: "tool", rawName: "list_resources" })).toBe("list_resources");
    expect(policyToolName({ kind: "list_resources", rawName: "list_resources" })).toBe("#list_resources");
    expect(defaultPolicy(policyHints({ kind: "read_resource" }))).toBe("allow");
    expect(defaultPolicy(policyHints({ kind: "tool", annotations: { destructiveHint: true } }))).toBe("ask");
  });

  it("redacts the user's key and usual secrets from model errors", () => {
    const text = chatErrorText(new Error("401 for key my-custom-key-123 and sk-abcdefghijklmnopqrstuv"), ["my-custom-key-123"]);
    expect(text).not.toContain("my-custom-key-123");
    expect(text).not.toContain("sk-abcdefghijklmnopqrstuv");
    expect(text.startsWith("The model request failed:")).toBe(true);
  });
});
