/**
 * A server's elicitation during a chat turn shows up in that turn's transcript, with what was asked
 * and what was answered (secret-looking fields masked), through the real provider path and
 * server-everything over stdio.
 */
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { listMessagesByChat } from "@/db/queries/messages";
import { updateServerTrust } from "@/db/queries/server-trust";
import { setToolPolicy } from "@/db/queries/tool-policies";
import { InteractionLog, maskedContent } from "@/lib/runtime/interactions";
import { McpPool } from "@/lib/mcp";
import { EVERYTHING } from "../mcp/helpers";
import { newUserWithChat, runTurn, useAgentEnvironment } from "./helpers";

const env = useAgentEnvironment();
const log = new InteractionLog();
const pool = new McpPool({ onElicitation: log.elicitation(async () => ({ action: "accept", content: { name: "Ada Lovelace" } })) });
afterAll(() => pool.closeAll());

describe("interactions in the transcript", () => {
  it("records an elicitation answered during a tool call in the answer that made the call", async () => {
    const { user, chat, servers } = await newUserWithChat({ everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } });
    await updateServerTrust(getDb(), servers[0].id, { trusted: true }, user.id);
    await setToolPolicy(getDb(), user.id, { serverId: servers[0].id, toolName: "trigger-elicitation-request", policy: "allow" });
    await runTurn({
      pool,
      llm: env.llm,
      userId: user.id,
      chatId: chat.id,
      servers,
      request: { message: { text: "[[call:trigger-elicitation-request]]", resources: [] } },
      followInteractions: (listener) => log.subscribe(user.id, listener),
    });
    const answer = (await listMessagesByChat(getDb(), chat.id)).at(-1)!;
    const part = answer.parts.find((p) => p.type === "data-interaction");
    expect(part?.type === "data-interaction" && part.data).toMatchObject({
      kind: "elicitation",
      serverName: "everything",
      asked: "Please provide inputs for the following fields:",
      outcome: "accept",
      answer: "name: Ada Lovelace",
    });
  });

  it("masks secret-looking fields and shows nothing for a declined request", () => {
    expect(maskedContent({ action: "accept", content: { user: "ada", apiKey: "sk-live-123" } }, ["apiKey"])).toBe(
      "user: ada\napiKey: ••••••",
    );
    expect(maskedContent({ action: "decline" }, [])).toBe("");
  });
});
