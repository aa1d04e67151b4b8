import { readUIMessageStream, type UIMessageChunk } from "ai";
import { describe, expect, it } from "vitest";
import type { ChatMessage } from "@/lib/domain/chat-message";
import { messageToChunks } from "@/lib/agent/replay-chunks";

const meta = { serverId: "s1", serverName: "everything", tool: "echo" };

/** A message continued after approvals: an answered call, an approved one waiting for its output, a denied one. */
const stored: ChatMessage = {
  id: "answer-1",
  role: "assistant",
  metadata: { model: "scripted" },
  parts: [
    { type: "step-start" },
    { type: "data-notice", id: "notice-s2", data: { serverId: "s2", serverName: "broken", text: "broken is left out" } },
    { type: "text", text: "Let me check.", state: "done" },
    {
      type: "dynamic-tool",
      toolName: "mcp_everything_echo",
      toolCallId: "call-1",
      state: "output-available",
      input: { message: "one" },
      output: { content: { content: [{ type: "text", text: "Echo: one" }] } },
      toolMetadata: meta,
    },
    {
      type: "dynamic-tool",
      toolName: "mcp_everything_echo",
      toolCallId: "call-2",
      state: "approval-responded",
      input: { message: "two" },
      approval: { id: "approval-2", approved: true },
      toolMetadata: meta,
    },
  ] as ChatMessage["parts"],
};

async function rebuild(chunks: UIMessageChunk[]): Promise<ChatMessage> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let last: ChatMessage | undefined;
  for await (const message of readUIMessageStream<ChatMessage>({ stream, terminateOnError: true })) last = message;
  return last!;
}

describe("replay chunks", () => {
  it("rebuild a stored message, so a rejoined continuation starts where the turn began", async () => {
    const rebuilt = await rebuild(messageToChunks(stored));
    expect(rebuilt.id).toBe("answer-1");
    expect(rebuilt.metadata).toEqual({ model: "scripted" });
    expect(rebuilt.parts.map((p) => p.type)).toEqual(["step-start", "data-notice", "text", "dynamic-tool", "dynamic-tool"]);
    expect(rebuilt.parts[2]).toMatchObject({ type: "text", text: "Let me check." });
    expect(rebuilt.parts[3]).toMatchObject({
      state: "output-available",
      toolCallId: "call-1",
      output: stored.parts[3].type === "dynamic-tool" && stored.parts[3].output,
    });
    expect(rebuilt.parts[4]).toMatchObject({
      state: "approval-responded",
      toolCallId: "call-2",
      approval: { id: "approval-2", approved: true },
    });
  });

  it("lets the continuation's own chunks land on the rebuilt parts", async () => {
    const rebuilt = await rebuild([
      ...messageToChunks(stored),
      // What the live continuation streams: the same start, then the approved call's output and the final text.
      { type: "start", messageId: "answer-1" },
      { type: "start-step" },
      { type: "tool-output-available", toolCallId: "call-2", output: { done: true }, dynamic: true },
      { type: "text-start", id: "t" },
      { type: "text-delta", id: "t", delta: "Done." },
      { type: "text-end", id: "t" },
      { type: "finish-step" },
      { type: "finish" },
    ]);
    expect(rebuilt.parts.filter((p) => p.type === "dynamic-tool").map((p) => p.state)).toEqual(["output-available", "output-available"]);
    expect(rebuilt.parts.at(-1)).toMatchObject({ type: "text", text: "Done." });
  });
});
