/**
 * The chat's use cases in cluster mode (`REDIS_URL` set: lib/use-cases/chat-turn.ts goes through
 * lib/runtime/shared-turns.ts) with the scripted LLM and a real Redis. This process is one replica;
 * another is a SharedTurnBuffer over its own Redis client. A turn running here is resumed and
 * stopped from the other replica (and saved as stopped); a new message here stops a turn running on
 * the other; a chat whose answer's replica died opens with that answer kept, marked interrupted.
 */
import type { UIMessageChunk } from "ai";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { createChat } from "@/db/queries/chats";
import { newId } from "@/db/ids";
import { listMessagesByChat, saveMessage } from "@/db/queries/messages";
import { upsertMembership } from "@/db/queries/memberships";
import { createUserWithWorkspace } from "@/db/queries/users";
import { createTeamWorkspace } from "@/db/queries/workspaces";
import { saveInterruptedAnswer } from "@/lib/agent/interrupted-answer";
import { SharedTurnBuffer, type SharedTurnBufferOptions } from "@/lib/agent/shared-turn-buffer";
import { RedisCoordination } from "@/lib/cluster";
import { type ChatMessage, metadataOf } from "@/lib/domain/chat-message";
import type { WorkspaceActor } from "@/lib/domain/workspace";
import { closeGlobalPool } from "@/lib/mcp/global-pool";
import { setWorkspaceModel } from "@/lib/models/workspace-default";
import { clearSingleton } from "@/lib/singleton";
import { chatTurnResponse, resumeChatTurn, stopChatTurn } from "@/lib/use-cases/chat-turn";
import { chatPage } from "@/lib/use-cases/chats";
import { startRedis, type TestRedis } from "../../helpers/redis";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { startScriptedLlm, type ScriptedLlm } from "../agent/helpers";

// The use cases are marked server-only (a bundler marker that throws outside Next's server build).
vi.mock("server-only", () => ({}));

let redis: TestRedis;
let llm: ScriptedLlm;
let dir = "";
let teamId = "";
const opened: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  dir = useTempDataDir();
  redis = await startRedis();
  process.env.REDIS_URL = redis.url;
  for (const key of ["SWITCHBOARD_LLM_PROVIDER", "SWITCHBOARD_LLM_MODEL", "SWITCHBOARD_LLM_BASE_URL"]) delete process.env[key];
  process.env.SWITCHBOARD_ALLOWED_HOSTS = "127.0.0.1";
  llm = await startScriptedLlm();
  const db = getDb();
  const owner = (await createUserWithWorkspace(db, { email: "owner@example.com", name: "Owner", passwordHash: "x" }))!;
  const team = await createTeamWorkspace(db, { name: "Team", slug: "team", ownerId: owner.id });
  teamId = team.id;
  const actor = { id: owner.id, workspaceId: teamId, role: "owner", workspace: team } as WorkspaceActor;
  await setWorkspaceModel(db, actor, {
    provider: "openai-compatible",
    model: "scripted",
    baseUrl: llm.baseUrl,
    apiKey: null,
    clearApiKey: false,
  });
});
afterAll(async () => {
  for (const each of opened.reverse()) await each.close().catch(() => {});
  await clearSingleton<SharedTurnBuffer>("turns.shared")?.close();
  await clearSingleton<RedisCoordination>("cluster.coordination")?.close();
  delete process.env.REDIS_URL;
  await closeGlobalPool();
  await llm?.close();
  await redis?.stop();
  removeTempDataDir(dir);
});

/** Another replica: its own Redis client and shared turn buffer (short beats so a death shows quickly). */
function otherReplica(id: string, options: Partial<SharedTurnBufferOptions> = {}) {
  const coordination = new RedisCoordination(redis.url);
  const turns = new SharedTurnBuffer(coordination, {
    replicaId: id,
    replicaAlive: async () => false,
    keepInterrupted: async ({ chatId }, chunks, complete) => {
      await saveInterruptedAnswer(getDb(), chatId, chunks, complete);
    },
    beatMs: 100,
    beatTtlMs: 400,
    pollMs: 50,
    ...options,
  });
  opened.push(coordination, turns);
  return { coordination, turns };
}

/** A member of the team with a chat of their own. */
async function memberWithChat() {
  const db = getDb();
  const user = (await createUserWithWorkspace(db, { email: `m-${newId()}@example.com`, name: "Member", passwordHash: "x" }))!;
  await upsertMembership(db, { workspaceId: teamId, userId: user.id, role: "member" });
  const chat = await createChat(db, { ownerId: user.id, workspaceId: teamId });
  return { caller: { id: user.id, workspaceId: teamId }, chatId: chat.id };
}

/** The UI chunks of a server-sent-events body, read as they arrive; `until` stops early. */
async function chunksOf(stream: ReadableStream<Uint8Array> | ReadableStream<UIMessageChunk>, until?: (all: UIMessageChunk[]) => boolean) {
  const out: UIMessageChunk[] = [];
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    if (typeof value === "object" && value !== null && "type" in value) out.push(value);
    else {
      text += decoder.decode(value as Uint8Array, { stream: true });
      const lines = text.split("\n");
      text = lines.pop() ?? "";
      for (const line of lines) if (line.startsWith("data: {")) out.push(JSON.parse(line.slice(6)) as UIMessageChunk);
    }
    if (until?.(out)) {
      reader.releaseLock();
      return { chunks: out, rest: stream };
    }
  }
  return { chunks: out, rest: null };
}

const words = (chunks: UIMessageChunk[]) =>
  chunks
    .filter((c) => c.type === "text-delta")
    .map((c) => (c as { delta: string }).delta)
    .join("");

const waitFor = async (check: () => boolean | Promise<boolean>, ms = 10_000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe("chat turns in cluster mode", () => {
  it("a turn running here is resumed and stopped from another replica, and saved as stopped", async () => {
    const { caller, chatId } = await memberWithChat();
    const b = otherReplica("b-resume");
    const response = await chatTurnResponse(caller, { chatId, message: { text: "[[slow]]", resources: [] } } as never);
    const live = await chunksOf(response.body!, (all) => words(all).includes("word3 "));
    const resumed = (await b.turns.resume(chatId, caller.id))!;
    expect(resumed).not.toBeNull();
    const replay = await chunksOf(resumed, (all) => words(all).includes("word5 "));
    expect(words(replay.chunks)).toMatch(/^word1 word2 word3 word4 word5 /);
    // Someone else cannot resume it, here or there.
    expect(await b.turns.resume(chatId, "someone-else")).toBeNull();

    await b.turns.stop(chatId, caller.id);
    const [liveRest, replayRest] = await Promise.all([chunksOf(live.rest!), chunksOf(replay.rest!)]);
    const liveWords = words([...live.chunks, ...liveRest.chunks]);
    expect(liveWords).not.toContain("word200");
    expect(words([...replay.chunks, ...replayRest.chunks])).toBe(liveWords);
    const stored = await listMessagesByChat(getDb(), chatId);
    expect(stored.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(metadataOf(stored[1]).stopped).toBe(true);
    // Through the use case on this replica too: the finished turn replays for a while.
    const again = await resumeChatTurn(caller, chatId);
    expect(again.status).toBe(200);
    expect(words((await chunksOf(again.body!)).chunks)).toBe(liveWords);
  }, 60_000);

  it("a new message here stops the answer still running on another replica first", async () => {
    const { caller, chatId } = await memberWithChat();
    const b = otherReplica("b-new-message");
    await b.turns.listen();
    let controller!: ReadableStreamDefaultController<UIMessageChunk>;
    const running = new ReadableStream<UIMessageChunk>({ start: (c) => (controller = c) });
    const events: string[] = [];
    void chunksOf(
      await b.turns.start(chatId, caller.id, running, () => {
        events.push("stopped");
        controller.close();
      }),
    );
    controller.enqueue({ type: "start", messageId: newId() });
    const response = await chatTurnResponse(caller, { chatId, message: { text: "next question", resources: [] } } as never);
    events.push("new turn started");
    expect(words((await chunksOf(response.body!)).chunks)).toContain("You said: next question");
    expect(events).toEqual(["stopped", "new turn started"]);
  }, 60_000);

  it("Stop here reaches a turn running on another replica; someone else's Stop is refused", async () => {
    const { caller, chatId } = await memberWithChat();
    const b = otherReplica("b-stop");
    await b.turns.listen();
    let controller!: ReadableStreamDefaultController<UIMessageChunk>;
    let stopped = 0;
    void chunksOf(
      await b.turns.start(chatId, caller.id, new ReadableStream<UIMessageChunk>({ start: (c) => (controller = c) }), () => {
        stopped++;
        controller.close();
      }),
    );
    controller.enqueue({ type: "start", messageId: newId() });
    const stranger = await memberWithChat();
    await expect(stopChatTurn(stranger.caller, chatId)).rejects.toMatchObject({ code: "chat.not_found" });
    expect(stopped).toBe(0);
    expect((await stopChatTurn(caller, chatId)).status).toBe(204);
    expect(stopped).toBe(1);
  }, 30_000);

  it("a chat whose answer's replica died opens with that answer kept and marked interrupted; its replay ends so", async () => {
    const { caller, chatId } = await memberWithChat();
    await saveMessage(getDb(), chatId, { id: newId(), role: "user", parts: [{ type: "text", text: "question" }] });
    const c = otherReplica("c-dies");
    const source = new ReadableStream<UIMessageChunk>({
      start(controller) {
        controller.enqueue({ type: "start", messageId: "answer-1", messageMetadata: { model: "scripted" } });
        controller.enqueue({ type: "start-step" });
        controller.enqueue({ type: "text-start", id: "t" });
        controller.enqueue({ type: "text-delta", id: "t", delta: "half an answer" });
      },
    });
    void chunksOf(await c.turns.start(chatId, caller.id, source, () => {}));
    await waitFor(async () => {
      const record = await c.coordination.get(`turn:${chatId}`);
      return (
        record !== null &&
        ((await c.coordination.range(`turn-chunks:${JSON.parse(record).turnId}`, 0)) ?? []).join("").includes("half an answer")
      );
    });
    await c.coordination.close(); // kill -9
    await new Promise((r) => setTimeout(r, 600)); // its turn's beat lapses

    const page = (await chatPage(caller, chatId))!;
    const answer = page.messages.at(-1) as ChatMessage;
    expect(answer.id).toBe("answer-1");
    expect(metadataOf(answer)).toMatchObject({ interrupted: true, model: "scripted" });
    expect(JSON.stringify(answer.parts)).toContain("half an answer");
    const replay = await resumeChatTurn(caller, chatId);
    expect(replay.status).toBe(200);
    const chunks = (await chunksOf(replay.body!)).chunks;
    expect(words(chunks)).toBe("half an answer");
    expect(chunks.at(-1)).toEqual({ type: "finish", messageMetadata: { interrupted: true } });
  }, 30_000);
});
