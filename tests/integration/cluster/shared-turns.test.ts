/**
 * Chat turns across replicas (lib/agent/shared-turn-buffer.ts) on a real Redis and the test
 * database: each "replica" is a SharedTurnBuffer over its own Redis client. A turn written through
 * one is replayed and followed through another; Stop through another stops it where it runs; a turn
 * whose replica died (its Redis client closed, its heartbeat gone) is kept as interrupted, exactly
 * once when two sweepers race, with what it had produced, and its readers end instead of waiting.
 */
import type { UIMessageChunk } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { createChat } from "@/db/queries/chats";
import { newId } from "@/db/ids";
import { listMessagesByChat, saveMessage } from "@/db/queries/messages";
import { createUserWithWorkspace } from "@/db/queries/users";
import { getPersonalWorkspaceId } from "@/db/queries/workspaces";
import { saveInterruptedAnswer } from "@/lib/agent/interrupted-answer";
import { SharedTurnBuffer, type SharedTurnBufferOptions } from "@/lib/agent/shared-turn-buffer";
import { RedisCoordination } from "@/lib/cluster";
import { metadataOf } from "@/lib/domain/chat-message";
import { startRedis, type TestRedis } from "../../helpers/redis";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";

let redis: TestRedis;
let dir = "";
const opened: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  dir = useTempDataDir();
  redis = await startRedis();
});
afterAll(async () => {
  for (const each of opened.reverse()) await each.close().catch(() => {});
  await redis?.stop();
  removeTempDataDir(dir);
});

/** Replicas whose heartbeat lapsed, for the sweep's `replicaAlive`. */
const dead = new Set<string>();
/** How many times an interrupted answer was kept, across replicas. */
let kept = 0;

/** One replica: its own Redis client and shared turn buffer (short beats so a death shows quickly). */
function replica(id: string, options: Partial<SharedTurnBufferOptions> = {}) {
  const coordination = new RedisCoordination(redis.url);
  const turns = new SharedTurnBuffer(coordination, {
    replicaId: id,
    replicaAlive: async (other) => !dead.has(other),
    keepInterrupted: async ({ chatId }, chunks, complete) => {
      kept++;
      await saveInterruptedAnswer(getDb(), chatId, chunks, complete);
    },
    beatMs: 100,
    beatTtlMs: 400,
    pollMs: 50,
    stopWaitMs: 2_000,
    ...options,
  });
  opened.push(coordination, turns);
  return { coordination, turns };
}

/** A turn's source stream the test writes into. */
function source() {
  let controller!: ReadableStreamDefaultController<UIMessageChunk>;
  const stream = new ReadableStream<UIMessageChunk>({ start: (c) => (controller = c) });
  return {
    stream,
    push: (chunk: UIMessageChunk) => controller.enqueue(chunk),
    end: () => controller.close(),
  };
}

/** The chunks of an answer with id `messageId`: start, one text part of `words`, not finished. */
function answer(messageId: string, words: string[]): UIMessageChunk[] {
  return [
    { type: "start", messageId, messageMetadata: { model: "scripted" } },
    { type: "start-step" },
    { type: "text-start", id: "t1" },
    ...words.map((word): UIMessageChunk => ({ type: "text-delta", id: "t1", delta: `${word} ` })),
  ];
}

async function readAll(stream: ReadableStream<UIMessageChunk>): Promise<UIMessageChunk[]> {
  const out: UIMessageChunk[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<UIMessageChunk>) out.push(chunk);
  return out;
}

const waitFor = async (check: () => boolean | Promise<boolean>, ms = 5_000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** Wait until the chat's turn list in Redis holds `text` (every chunk the test wrote reached Redis). */
async function waitForList(coordination: RedisCoordination, chatId: string, text: string) {
  await waitFor(async () => {
    const record = await coordination.get(`turn:${chatId}`);
    return record !== null && ((await coordination.range(`turn-chunks:${JSON.parse(record).turnId}`, 0)) ?? []).join("").includes(text);
  });
}

/** A user with a chat and its question stored (what prepareTurn does before the model runs). */
async function chatWithQuestion() {
  const db = getDb();
  const user = (await createUserWithWorkspace(db, { email: `u-${newId()}@example.com`, name: "U", passwordHash: "x" }))!;
  const chat = await createChat(db, { ownerId: user.id, workspaceId: (await getPersonalWorkspaceId(db, user.id))! });
  await saveMessage(db, chat.id, { id: newId(), role: "user", parts: [{ type: "text", text: "question" }] });
  return { ownerId: user.id, chatId: chat.id };
}

describe("chat turns across replicas", () => {
  it("a turn written through one replica is replayed from its start and followed through another, to its owner only", async () => {
    const a = replica("a1");
    const b = replica("b1");
    const turn = source();
    const prefix = answer("m1", ["before"]);
    const live = await a.turns.start("chat-1", "alice", turn.stream, () => {}, prefix);
    const liveRead = readAll(live);
    const first = answer("m1", ["one", "two"]).slice(1);
    for (const chunk of first) turn.push(chunk);

    expect(await b.turns.resume("chat-1", "bob")).toBeNull();
    const resumed = (await b.turns.resume("chat-1", "alice"))!;
    expect(resumed).not.toBeNull();
    const replay = readAll(resumed);
    // Many chunks in quick bursts while the other replica follows: none lost, none twice, in order.
    const rest: UIMessageChunk[] = [];
    for (let i = 0; i < 300; i++) {
      const chunk: UIMessageChunk = { type: "text-delta", id: "t1", delta: `w${i} ` };
      rest.push(chunk);
      turn.push(chunk);
      if (i % 37 === 0) await new Promise((r) => setTimeout(r, 1));
    }
    const end: UIMessageChunk[] = [{ type: "text-end", id: "t1" }, { type: "finish-step" }, { type: "finish" }];
    for (const chunk of end) turn.push(chunk);
    turn.end();
    expect(await liveRead).toEqual([...first, ...rest, ...end]);
    expect(await replay).toEqual([...prefix, ...first, ...rest, ...end]);
    // Finished, it stays replayable for a while, from any replica (the runner included).
    expect(await readAll((await b.turns.resume("chat-1", "alice"))!)).toEqual([...prefix, ...first, ...rest, ...end]);
    await waitFor(() => a.turns.runningHere === 0);
    expect(await readAll((await a.turns.resume("chat-1", "alice"))!)).toEqual([...prefix, ...first, ...rest, ...end]);
  });

  it("Stop through another replica stops the turn where it runs, and returns once it ended", async () => {
    const a = replica("a2");
    const b = replica("b2");
    await a.turns.listen();
    const turn = source();
    let stopped = 0;
    const live = await a.turns.start("chat-2", "alice", turn.stream, () => {
      stopped++;
      // What aborting the model does: the stream ends (and the answer is saved as stopped).
      turn.push({ type: "finish" });
      turn.end();
    });
    void readAll(live);
    turn.push({ type: "start", messageId: "m2" });
    // Someone else's Stop does nothing.
    await b.turns.stop("chat-2", "mallory");
    expect(stopped).toBe(0);
    await b.turns.stop("chat-2", "alice");
    expect(stopped).toBe(1);
    const record = JSON.parse((await b.coordination.get("turn:chat-2"))!) as { state: string; replica: string };
    expect(record).toMatchObject({ state: "done", replica: "a2" });
  });

  it("a turn past the byte cap is no longer offered for replay elsewhere; its followers end", async () => {
    const a = replica("a3", { maxBytes: 2_000 });
    const b = replica("b3", { maxBytes: 2_000 });
    const turn = source();
    void readAll(await a.turns.start("chat-3", "alice", turn.stream, () => {}));
    turn.push({ type: "start", messageId: "m3" });
    await waitFor(async () => (await b.coordination.get("turn:chat-3")) !== null);
    const follower = readAll((await b.turns.resume("chat-3", "alice"))!);
    for (let i = 0; i < 40; i++) turn.push({ type: "text-delta", id: "t", delta: "x".repeat(100) });
    const got = await follower;
    expect(got.length).toBeLessThan(41);
    await waitFor(async () => (await b.turns.resume("chat-3", "alice")) === null);
    turn.end();
  });

  it("a replica that dies mid-answer: its follower ends with the partial answer marked interrupted, kept once in the chat", async () => {
    const { ownerId, chatId } = await chatWithQuestion();
    const a = replica("a4");
    const b = replica("b4");
    const c = replica("c4");
    const turn = source();
    void readAll(await a.turns.start(chatId, ownerId, turn.stream, () => {}));
    const messageId = newId();
    for (const chunk of answer(messageId, ["the", "partial", "answer"])) turn.push(chunk);
    await waitForList(b.coordination, chatId, "answer ");
    const follower = readAll((await b.turns.resume(chatId, ownerId))!);

    // kill -9 of replica a: nothing it holds reaches Redis any more (its beat lapses), its heartbeat is gone.
    const killedAt = Date.now();
    await a.coordination.close();
    dead.add("a4");
    kept = 0;
    const got = await follower;
    expect(Date.now() - killedAt).toBeLessThan(3_000);
    expect(got.at(-1)).toEqual({ type: "finish", messageMetadata: { interrupted: true } });
    expect(got.filter((chunk) => chunk.type === "text-delta").map((chunk) => (chunk as { delta: string }).delta)).toEqual([
      "the ",
      "partial ",
      "answer ",
    ]);
    // Two sweepers racing later find nothing more to do: it was kept once.
    expect((await Promise.all([b.turns.sweep(), c.turns.sweep()])).reduce((x, y) => x + y, 0)).toBe(0);
    expect(kept).toBe(1);
    const stored = await listMessagesByChat(getDb(), chatId);
    expect(stored.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(stored[1].id).toBe(messageId);
    expect(metadataOf(stored[1])).toMatchObject({ model: "scripted", interrupted: true });
    expect(JSON.stringify(stored[1].parts)).toContain("the partial answer");
    // Opened again, the replay ends with the same mark.
    expect((await readAll((await c.turns.resume(chatId, ownerId))!)).at(-1)).toEqual({
      type: "finish",
      messageMetadata: { interrupted: true },
    });
  });

  it("with nobody watching, two sweepers racing keep a dead replica's turn exactly once", async () => {
    const { ownerId, chatId } = await chatWithQuestion();
    const a = replica("a5");
    const b = replica("b5");
    const c = replica("c5");
    const turn = source();
    void readAll(await a.turns.start(chatId, ownerId, turn.stream, () => {}));
    const messageId = newId();
    for (const chunk of answer(messageId, ["unwatched", "words"])) turn.push(chunk);
    await waitForList(b.coordination, chatId, "words ");
    // Both have read the index while the replica was alive: nothing to keep.
    expect(await b.turns.sweep()).toBe(0);
    expect(await c.turns.sweep()).toBe(0);

    await a.coordination.close();
    dead.add("a5");
    kept = 0;
    // Its heartbeat counts as lapsed at once here; the turn's own beat lapses within beatTtlMs.
    let total = 0;
    await waitFor(async () => {
      const rounds = await Promise.all([b.turns.sweep(), c.turns.sweep(), b.turns.sweep(), c.turns.sweep()]);
      total += rounds.reduce((x, y) => x + y, 0);
      return total > 0;
    });
    expect(await Promise.all([b.turns.sweep(), c.turns.sweep()])).toEqual([0, 0]);
    expect(total).toBe(1);
    expect(kept).toBe(1);
    const stored = await listMessagesByChat(getDb(), chatId);
    expect(stored.at(-1)?.id).toBe(messageId);
    expect(metadataOf(stored.at(-1)!).interrupted).toBe(true);
    expect(JSON.stringify(stored.at(-1)!.parts)).toContain("unwatched words");
    // A page opened now (settle first) finds nothing left to keep.
    expect(await b.turns.settle(chatId)).toBe(false);
  });

  it("a page opened after the death keeps the answer itself (settle), and a new message does not wait for the dead replica", async () => {
    const { ownerId, chatId } = await chatWithQuestion();
    // A longer beat here, so "still running" right after the kill holds on a busy machine.
    const a = replica("a6", { beatTtlMs: 1_500 });
    const b = replica("b6");
    const turn = source();
    void readAll(await a.turns.start(chatId, ownerId, turn.stream, () => {}));
    const messageId = newId();
    for (const chunk of answer(messageId, ["left", "behind"])) turn.push(chunk);
    await waitForList(b.coordination, chatId, "behind ");
    await a.coordination.close();
    dead.add("a6");
    // While its beat lasts the turn counts as running.
    expect(await b.turns.settle(chatId)).toBe(false);
    await new Promise((r) => setTimeout(r, 1_700));
    const started = Date.now();
    // A new message's stop finds the runner gone and keeps its answer instead of waiting for it.
    await b.turns.stop(chatId, ownerId);
    expect(Date.now() - started).toBeLessThan(1_000);
    const stored = await listMessagesByChat(getDb(), chatId);
    expect(metadataOf(stored.at(-1)!).interrupted).toBe(true);
    expect(await b.turns.settle(chatId)).toBe(false);
  });
});
