/**
 * `kill -9` of the replica running a chat turn, with the production timings (a beat per second that
 * lasts 3 s, a reader's check every 500 ms): a reader following the turn from another replica gets
 * the words written before the kill and then the `interrupted` finish within 4.5 s of the kill, never
 * a wait without end; the chat holds the partial answer marked interrupted, kept once.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import type { UIMessageChunk } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { createChat } from "@/db/queries/chats";
import { newId } from "@/db/ids";
import { listMessagesByChat, saveMessage } from "@/db/queries/messages";
import { createUserWithWorkspace } from "@/db/queries/users";
import { getPersonalWorkspaceId } from "@/db/queries/workspaces";
import { saveInterruptedAnswer } from "@/lib/agent/interrupted-answer";
import { SharedTurnBuffer } from "@/lib/agent/shared-turn-buffer";
import { RedisCoordination } from "@/lib/cluster";
import { metadataOf } from "@/lib/domain/chat-message";
import { startRedis, type TestRedis } from "../../helpers/redis";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";

const CHILD = path.join("tests", "fixtures", "cluster", "turn-process.ts");

let redis: TestRedis;
let dir = "";
let child: ChildProcess | null = null;

beforeAll(async () => {
  dir = useTempDataDir();
  redis = await startRedis();
});
afterAll(async () => {
  child?.kill("SIGKILL");
  await redis?.stop();
  removeTempDataDir(dir);
});

describe("the replica running a turn is killed", () => {
  it("a reader on another replica ends with the partial answer marked interrupted within 4.5 s, kept once", async () => {
    const db = getDb();
    const user = (await createUserWithWorkspace(db, { email: "kill@example.com", name: "K", passwordHash: "x" }))!;
    const chat = await createChat(db, { ownerId: user.id, workspaceId: (await getPersonalWorkspaceId(db, user.id))! });
    await saveMessage(db, chat.id, { id: newId(), role: "user", parts: [{ type: "text", text: "question" }] });
    const messageId = newId();

    // One process (tsx as a loader, not its CLI, which would run the script in a child of its own).
    const running = spawn(process.execPath, ["--import", "tsx", CHILD, redis.url, chat.id, user.id, messageId], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    child = running;
    let err = "";
    running.stderr?.on("data", (chunk) => (err += chunk));
    await new Promise<void>((resolve, reject) => {
      running.stdout?.on("data", (chunk) => String(chunk).includes("running") && resolve());
      running.on("exit", (code) => reject(new Error(`the child exited ${code}: ${err}`)));
    });

    const coordination = new RedisCoordination(redis.url);
    let kept = 0;
    const survivor = new SharedTurnBuffer(coordination, {
      replicaId: "survivor",
      replicaAlive: async () => false,
      keepInterrupted: async ({ chatId }, chunks, complete) => {
        kept++;
        await saveInterruptedAnswer(getDb(), chatId, chunks, complete);
      },
    });
    try {
      const reader = (await survivor.resume(chat.id, user.id))!.getReader();
      const got: UIMessageChunk[] = [];
      const first = await reader.read();
      got.push(first.value!);
      const exited = new Promise((resolve) => running.once("exit", resolve));
      running.kill("SIGKILL");
      const killedAt = Date.now();
      await exited;
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        got.push(value);
      }
      const took = Date.now() - killedAt;
      // At most the beat's 3 s plus one 500 ms check, plus saving the answer.
      expect(took).toBeLessThan(4_500);
      expect(got.at(-1)).toEqual({ type: "finish", messageMetadata: { interrupted: true } });
      const text = got
        .filter((c) => c.type === "text-delta")
        .map((c) => (c as { delta: string }).delta)
        .join("");
      expect(text).toMatch(/^word1 word2 word3 word4 word5 /);

      expect(await survivor.settle(chat.id)).toBe(false);
      expect(await survivor.sweep()).toBe(0);
      expect(kept).toBe(1);
      const stored = await listMessagesByChat(db, chat.id);
      expect(stored.map((m) => m.role)).toEqual(["user", "assistant"]);
      expect(stored[1].id).toBe(messageId);
      expect(metadataOf(stored[1]).interrupted).toBe(true);
      expect(JSON.stringify(stored[1].parts)).toContain(text.trim());
    } finally {
      await survivor.close();
      await coordination.close();
    }
  }, 60_000);
});
