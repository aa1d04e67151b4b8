/**
 * Applying the user's approval decisions to the stored assistant message. Decisions come from the
 * request, but only for approvals the server itself recorded as pending: a client cannot invent an
 * approval or rewrite history, only answer what it was asked (docs/architecture.md#the-agent).
 */
import type { ChatMessage } from "../domain/chat-message";
import { DENIED_BY_USER } from "../trust/policy";

/** One answer from the approval card; `input` carries edited arguments (used only when approved). */
export interface ApprovalDecision {
  approvalId: string;
  approved: boolean;
  input?: Record<string, unknown>;
}

/** Reason kept on an approval whose arguments the user changed before allowing it (the card shows it). */
export const EDITED_BY_USER = "Arguments edited by the user before approval.";

/** One applied answer, for the audit log (no argument values: they may hold private data). */
export interface AppliedDecision {
  toolName: string;
  serverId?: string;
  approved: boolean;
  edited: boolean;
}

/** Reason recorded for approvals left pending when the user sent a new message instead. */
export const SKIPPED_BY_USER = "The user did not approve this tool call and moved on.";

/** Answer the pending approvals named in `decisions`; returns the new message and what applied. */
export function applyApprovalDecisions(
  message: ChatMessage,
  decisions: ApprovalDecision[],
): { message: ChatMessage; applied: number; decisions: AppliedDecision[] } {
  const byId = new Map(decisions.map((d) => [d.approvalId, d]));
  const applied: AppliedDecision[] = [];
  const parts = message.parts.map((part) => {
    if (part.type !== "dynamic-tool" || part.state !== "approval-requested") return part;
    const decision = byId.get(part.approval.id);
    if (!decision) return part;
    const edited = decision.approved && !!decision.input && JSON.stringify(decision.input) !== JSON.stringify(part.input ?? {});
    const serverId = (part.toolMetadata as { serverId?: string } | undefined)?.serverId;
    applied.push({ toolName: part.toolName, serverId, approved: decision.approved, edited });
    const reason = decision.approved ? (edited ? EDITED_BY_USER : undefined) : DENIED_BY_USER;
    return {
      ...part,
      state: "approval-responded" as const,
      input: decision.approved && decision.input ? decision.input : part.input,
      approval: { ...part.approval, approved: decision.approved, ...(reason ? { reason } : {}) },
    };
  });
  return { message: { ...message, parts }, applied: applied.length, decisions: applied };
}

/** Turn approvals still pending into denials, so the model sees a result for every call it made. */
export function denyPendingApprovals(message: ChatMessage): { message: ChatMessage; changed: boolean } {
  let changed = false;
  const parts = message.parts.map((part) => {
    if (part.type !== "dynamic-tool" || part.state !== "approval-requested") return part;
    changed = true;
    return { ...part, state: "output-denied" as const, approval: { ...part.approval, approved: false as const, reason: SKIPPED_BY_USER } };
  });
  return { message: { ...message, parts }, changed };
}

/** Whether a message has approvals waiting for the user. */
export function hasPendingApprovals(message: ChatMessage | undefined): boolean {
  return !!message?.parts.some((p) => p.type === "dynamic-tool" && p.state === "approval-requested");
}
