/**
 * Message actions on the server side, through the real provider path (scripted LLM over HTTP) and a
 * real MCP server for prompts: retry drops the old answer, edit-and-resend replaces the last user
 * message, an edited prompt preview is what the model gets, and each answer names its model and
 * whether it was stopped.
 */
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { listMessagesByChat } from "@/db/queries/messages";
import { metadataOf } from "@/lib/domain/chat-message";
import { textOf } from "@/lib/agent/message-parts";
import { EVERYTHING } from "../mcp/helpers";
import { newUserWithChat, runTurn, say, useAgentEnvironment } from "./helpers";

const env = useAgentEnvironment();

describe("message actions", () => {
  it("retry answers the last user message again and keeps one answer; edit-and-resend replaces the question", async () => {
    const { user, chat } = await newUserWithChat();
    const base = { pool: env.pool, llm: env.llm, userId: user.id, chatId: chat.id, servers: [] };
    await runTurn({ ...base, request: say("first question") });
    await runTurn({ ...base, request: { regenerate: true } });
    let stored = await listMessagesByChat(getDb(), chat.id);
    expect(stored.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(textOf(stored[1])).toContain("You said: first question");
    expect(metadataOf(stored[1]).model).toBe("scripted");

    await runTurn({ ...base, request: { ...say("second, edited"), replaceLast: true } });
    stored = await listMessagesByChat(getDb(), chat.id);
    expect(stored.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(textOf(stored[0])).toBe("second, edited");
    expect(textOf(stored[1])).toContain("You said: second, edited");
  });

  it("marks an answer stopped mid-stream", async () => {
    const { user, chat } = await newUserWithChat();
    const stop = new AbortController();
    let words = 0;
    await runTurn({
      pool: env.pool,
      llm: env.llm,
      userId: user.id,
      chatId: chat.id,
      servers: [],
      request: say("[[slow]]"),
      signal: stop.signal,
      onChunk: (c) => {
        if (c.type === "text-delta" && ++words === 3) stop.abort();
      },
    });
    const answer = (await listMessagesByChat(getDb(), chat.id)).at(-1)!;
    expect(metadataOf(answer)).toMatchObject({ model: "scripted", stopped: true });
  });

  it("sends the prompt's messages as the user edited them in the preview, and shows that in the transcript", async () => {
    const { user, chat, servers } = await newUserWithChat({ everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } });
    const edited = [{ role: "user" as const, text: "My edited prompt text" }];
    await runTurn({
      pool: env.pool,
      llm: env.llm,
      userId: user.id,
      chatId: chat.id,
      servers,
      request: say("", { prompt: { serverId: servers[0].id, name: "simple-prompt", arguments: {}, messages: edited } }),
    });
    const question = (await listMessagesByChat(getDb(), chat.id))[0];
    const prompt = question.parts.find((p) => p.type === "data-prompt");
    expect(prompt?.type === "data-prompt" && prompt.data).toMatchObject({ edited: true, messages: edited });
    expect(JSON.stringify(env.llm.requests.at(-1)!.body.messages)).toContain("My edited prompt text");
  });
});
