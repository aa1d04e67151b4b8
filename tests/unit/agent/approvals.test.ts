import { describe, expect, it } from "vitest";
import { SKIPPED_BY_USER, applyApprovalDecisions, denyPendingApprovals, hasPendingApprovals } from "@/lib/agent/approvals";
import type { ChatMessage } from "@/lib/domain/chat-message";
import { DENIED_BY_USER } from "@/lib/trust/policy";

function message(): ChatMessage {
  return {
    id: "m1",
    role: "assistant",
    parts: [
      { type: "text", text: "Calling" },
      {
        type: "dynamic-tool",
        toolName: "mcp_a_echo",
        toolCallId: "c1",
        state: "approval-requested",
        input: { message: "one" },
        approval: { id: "ap1" },
      },
      {
        type: "dynamic-tool",
        toolName: "mcp_a_echo",
        toolCallId: "c2",
        state: "approval-requested",
        input: { message: "two" },
        approval: { id: "ap2" },
      },
      { type: "dynamic-tool", toolName: "mcp_a_echo", toolCallId: "c3", state: "output-available", input: {}, output: { ok: 1 } },
    ],
  };
}

describe("approval decisions", () => {
  it("answers only approvals that are pending, with edited input when approved", () => {
    const { message: next, applied } = applyApprovalDecisions(message(), [
      { approvalId: "ap1", approved: true, input: { message: "edited" } },
      { approvalId: "ap2", approved: false, input: { message: "ignored" } },
      { approvalId: "unknown", approved: true },
    ]);
    expect(applied).toBe(2);
    const [, first, second, third] = next.parts as Extract<ChatMessage["parts"][number], { type: "dynamic-tool" }>[];
    expect(first).toMatchObject({ state: "approval-responded", input: { message: "edited" }, approval: { id: "ap1", approved: true } });
    expect(second).toMatchObject({
      state: "approval-responded",
      input: { message: "two" },
      approval: { id: "ap2", approved: false, reason: DENIED_BY_USER },
    });
    expect(third.state).toBe("output-available");
  });

  it("cannot answer a call that is no longer pending", () => {
    expect(applyApprovalDecisions(message(), [{ approvalId: "nope", approved: true }]).applied).toBe(0);
  });

  it("denies what is left pending when the user moves on", () => {
    expect(hasPendingApprovals(message())).toBe(true);
    const { message: next, changed } = denyPendingApprovals(message());
    expect(changed).toBe(true);
    expect(hasPendingApprovals(next)).toBe(false);
    expect(next.parts[1]).toMatchObject({ state: "output-denied", approval: { approved: false, reason: SKIPPED_BY_USER } });
  });
});
