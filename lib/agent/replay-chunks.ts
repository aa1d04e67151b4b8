/**
 * A stored assistant message as UI stream chunks. A turn that continues a message (after tool
 * approvals) streams only what it adds; a reader who rejoins it (docs/chat.md#runs-that-survive-navigation)
 * starts from an empty message, so the replay is prefixed with the message as it stood when the
 * turn began. Parts the stream cannot carry (step boundaries are rebuilt; sources and files are not
 * produced by this app) are skipped.
 */
import type { DynamicToolUIPart, UIMessageChunk } from "ai";
import type { ChatMessage } from "../domain/chat-message";

/** The chunks of one tool part, up to its current state. */
function toolChunks(part: DynamicToolUIPart): UIMessageChunk[] {
  const out: UIMessageChunk[] = [];
  if (part.state === "input-streaming") {
    out.push({ type: "tool-input-start", toolCallId: part.toolCallId, toolName: part.toolName, dynamic: true, title: part.title });
    return out;
  }
  out.push({
    type: "tool-input-available",
    toolCallId: part.toolCallId,
    toolName: part.toolName,
    input: part.input,
    dynamic: true,
    ...(part.title !== undefined ? { title: part.title } : {}),
    ...(part.toolMetadata !== undefined ? { toolMetadata: part.toolMetadata as Record<string, never> } : {}),
  });
  const approval = "approval" in part ? part.approval : undefined;
  if (approval) out.push({ type: "tool-approval-request", approvalId: approval.id, toolCallId: part.toolCallId });
  if (approval && approval.approved !== undefined) {
    out.push({ type: "tool-approval-response", approvalId: approval.id, approved: approval.approved, reason: approval.reason });
  }
  if (part.state === "output-available")
    out.push({ type: "tool-output-available", toolCallId: part.toolCallId, output: part.output, dynamic: true });
  if (part.state === "output-error")
    out.push({ type: "tool-output-error", toolCallId: part.toolCallId, errorText: part.errorText ?? "", dynamic: true });
  if (part.state === "output-denied") out.push({ type: "tool-output-denied", toolCallId: part.toolCallId });
  return out;
}

/** `message` as a self-contained chunk sequence starting with `start` (no `finish`: the live turn follows). */
export function messageToChunks(message: ChatMessage): UIMessageChunk[] {
  const out: UIMessageChunk[] = [
    { type: "start", messageId: message.id, ...(message.metadata ? { messageMetadata: message.metadata } : {}) },
  ];
  let inStep = false;
  message.parts.forEach((part, i) => {
    const id = `replay-${i}`;
    switch (part.type) {
      case "step-start":
        if (inStep) out.push({ type: "finish-step" });
        out.push({ type: "start-step" });
        inStep = true;
        return;
      case "text":
        out.push({ type: "text-start", id }, { type: "text-delta", id, delta: part.text }, { type: "text-end", id });
        return;
      case "reasoning":
        out.push({ type: "reasoning-start", id }, { type: "reasoning-delta", id, delta: part.text }, { type: "reasoning-end", id });
        return;
      case "dynamic-tool":
        out.push(...toolChunks(part));
        return;
      default:
        if (part.type.startsWith("data-")) {
          const data = part as { type: `data-${string}`; id?: string; data: unknown };
          out.push({ type: data.type, id: data.id, data: data.data } as UIMessageChunk);
        }
    }
  });
  if (inStep) out.push({ type: "finish-step" });
  return out;
}
