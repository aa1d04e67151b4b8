/**
 * Rebuilding the answer of a turn whose replica died from the chunks it had written
 * (lib/agent/interrupted-answer.ts): a half-written text is kept, a continuation lands on the
 * message it continues (the replay's prefix first), an answer that had produced nothing is not
 * stored, and chunks that start no message build none.
 */
import type { UIMessageChunk } from "ai";
import { describe, expect, it } from "vitest";
import { markInterrupted, messageFromChunks, saveInterruptedAnswer } from "@/lib/agent/interrupted-answer";
import { messageToChunks } from "@/lib/agent/replay-chunks";
import { type ChatMessage, metadataOf } from "@/lib/domain/chat-message";

describe("interrupted answers", () => {
  it("keeps a text cut off mid-way, with the model that wrote it", async () => {
    const message = await messageFromChunks([
      { type: "start", messageId: "a1", messageMetadata: { model: "scripted" } },
      { type: "start-step" },
      { type: "text-start", id: "t" },
      { type: "text-delta", id: "t", delta: "half " },
      { type: "text-delta", id: "t", delta: "an answer" },
    ]);
    expect(message?.id).toBe("a1");
    expect(message?.role).toBe("assistant");
    expect(message?.parts.find((p) => p.type === "text")).toMatchObject({ text: "half an answer" });
    expect(metadataOf(markInterrupted(message!))).toEqual({ model: "scripted", interrupted: true });
  });

  it("puts a continuation after approvals on the message it continues", async () => {
    const asked: ChatMessage = {
      id: "a2",
      role: "assistant",
      metadata: { model: "scripted" },
      parts: [
        { type: "step-start" },
        {
          type: "dynamic-tool",
          toolName: "mcp_everything_echo",
          toolCallId: "call-1",
          state: "approval-responded",
          input: { message: "hi" },
          approval: { id: "ap-1", approved: true },
        },
      ],
    };
    const continuation: UIMessageChunk[] = [
      { type: "start", messageId: "a2", messageMetadata: { model: "scripted" } },
      { type: "tool-output-available", toolCallId: "call-1", output: { result: "Echo: hi" }, dynamic: true },
      { type: "start-step" },
      { type: "text-start", id: "t" },
      { type: "text-delta", id: "t", delta: "Tool results" },
    ];
    const message = await messageFromChunks([...messageToChunks(asked), ...continuation]);
    expect(message?.id).toBe("a2");
    expect(message?.parts.find((p) => p.type === "dynamic-tool")).toMatchObject({
      state: "output-available",
      output: { result: "Echo: hi" },
    });
    expect(message?.parts.find((p) => p.type === "text")).toMatchObject({ text: "Tool results" });
  });

  it("stores nothing for an answer that had produced nothing yet", async () => {
    let touched = false;
    // A database that notes any use: nothing may be written.
    const db = new Proxy(
      {},
      {
        get: () => {
          touched = true;
          return undefined;
        },
      },
    ) as never;
    const empty: UIMessageChunk[] = [{ type: "start", messageId: "a3" }, { type: "start-step" }];
    expect(await saveInterruptedAnswer(db, "chat", empty, true)).toBeNull();
    expect(touched).toBe(false);
  });

  it("builds nothing from chunks that start no message", async () => {
    expect(await messageFromChunks([])).toBeNull();
    expect(await messageFromChunks([{ type: "text-delta", id: "t", delta: "orphan" }])).toBeNull();
  });
});
