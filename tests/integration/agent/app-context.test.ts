/**
 * MCP Apps in the agent: a call of a tool that links an app keeps the app's URI on its output (the
 * chat renders the app from it, also after a reload), and context an app gave the model joins the
 * next user message as visible, untrusted data — once.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { saveAppContext, takeAppContexts } from "@/db/queries/app-contexts";
import { listMessagesByChat } from "@/db/queries/messages";
import { setToolPolicy } from "@/db/queries/tool-policies";
import type { ToolCallOutput } from "@/lib/domain/chat-message";
import { newUserWithChat, runTurn, say, useAgentEnvironment } from "./helpers";

const env = useAgentEnvironment();
const PROBE = path.join(__dirname, "../../fixtures/mcp/apps-probe-server.mjs");

function userText(body: { messages: { role: string; content: unknown }[] }): string {
  const last = body.messages.filter((m) => m.role === "user").at(-1)!;
  return typeof last.content === "string" ? last.content : JSON.stringify(last.content);
}

describe("MCP Apps in the chat", () => {
  it("keeps the app URI on the call's output and gives the app's context to the model once", async () => {
    const { user, chat, servers } = await newUserWithChat({ probe: { command: process.execPath, args: [PROBE] } });
    const db = getDb();
    await setToolPolicy(db, user.id, { serverId: servers[0].id, toolName: "show", policy: "allow" });
    const turn = { ...env, userId: user.id, chatId: chat.id, servers };
    await runTurn({ ...turn, request: say("show it [[call:show]]") });
    const call = (await listMessagesByChat(db, chat.id)).at(-1)!.parts.find((p) => p.type === "dynamic-tool")!;
    expect(call.state).toBe("output-available");
    const output = (call as { output: ToolCallOutput; toolCallId: string }).output;
    expect(output.appUri).toBe("ui://probe/app.html");

    await saveAppContext(db, {
      chatId: chat.id,
      toolCallId: (call as { toolCallId: string }).toolCallId,
      serverId: servers[0].id,
      serverName: "probe",
      text: "The user picked option 42 in the app.",
    });
    const before = env.llm.requests.length;
    await runTurn({ ...turn, request: say("what did I pick?") });
    const sent = userText(env.llm.requests[before].body);
    expect(sent).toContain("The user picked option 42 in the app.");
    expect(sent).toContain('untrusted data from MCP server \\"probe\\"');
    const stored = (await listMessagesByChat(db, chat.id)).filter((m) => m.role === "user").at(-1)!;
    expect(stored.parts.map((p) => p.type)).toEqual(["data-appContext", "text"]);
    expect(await takeAppContexts(db, chat.id)).toEqual([]);

    // Taken once: the next message carries no new context part.
    await runTurn({ ...turn, request: say("and now?") });
    const latest = (await listMessagesByChat(db, chat.id)).filter((m) => m.role === "user").at(-1)!;
    expect(latest.parts.map((p) => p.type)).toEqual(["text"]);
  });
});
