/**
 * A turn waiting for a tool approval survives a restart and continues on any process: the approval
 * lives in the stored answer, not in the memory of the process that asked. This process runs the
 * turn that asks; another process (tsx, same database, nothing in memory) answers it and the turn
 * continues there — the tool runs and the model gets its result — and the stored answer says so.
 * A second answer to the same approval is refused (`chat.approval_not_pending`).
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { listMessagesByChat } from "@/db/queries/messages";
import { textOf } from "@/lib/agent/message-parts";
import { EVERYTHING } from "../mcp/helpers";
import { newUserWithChat, runTurn, say, useAgentEnvironment } from "./helpers";

const TSX = path.join("node_modules", "tsx", "dist", "cli.mjs");
const CHILD = path.join("tests", "fixtures", "agent", "approve-process.ts");

const env = useAgentEnvironment();

/** Run the child to its end; resolves to the chunk types it printed. */
function child(args: string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [TSX, CHILD, ...args], { env: process.env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    proc.stdout.on("data", (chunk) => (out += chunk));
    proc.stderr.on("data", (chunk) => (err += chunk));
    proc.on("exit", (code) => {
      if (code !== 0) return reject(new Error(`the child exited ${code}: ${err}`));
      resolve((JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as { types: string[] }).types);
    });
  });
}

describe("a pending approval across processes", () => {
  it("asked here, approved in another process: the turn continues there and the tool's result is stored", async () => {
    // An untrusted server (the default): the tool call waits for approval.
    const { user, chat, servers } = await newUserWithChat({ everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } });
    await runTurn({ ...env, userId: user.id, chatId: chat.id, servers, request: say('[[call:echo {"message":"after a restart"}]]') });
    const asked = (await listMessagesByChat(getDb(), chat.id))[1];
    const pending = asked.parts.find((p) => p.type === "dynamic-tool");
    expect(pending?.state).toBe("approval-requested");
    const approvalId = (pending as { approval: { id: string } }).approval.id;

    const types = await child([user.id, user.workspaceId, chat.id, approvalId, env.llm.baseUrl]);
    expect(types).toContain("tool-output-available");
    const stored = await listMessagesByChat(getDb(), chat.id);
    expect(stored.map((m) => m.role)).toEqual(["user", "assistant"]);
    const done = stored[1].parts.find((p) => p.type === "dynamic-tool");
    expect(done?.state).toBe("output-available");
    expect(textOf(stored[1])).toContain("Echo: after a restart");

    // Answered once: the same approval cannot run the call again, in this process or any other.
    await expect(
      runTurn({ ...env, userId: user.id, chatId: chat.id, servers, request: { approvals: [{ approvalId, approved: true }] } }),
    ).rejects.toMatchObject({ code: "chat.approval_not_pending" });
  }, 90_000);
});
