/**
 * The live event hub across replicas (lib/runtime/status-events.ts over a real Redis): two hubs,
 * each over its own Redis client, stand for two replicas. An event published on one reaches the
 * user's streams on the other (and their `GET /api/events` body), once; a replica hears a user's
 * channel only while it holds a stream of theirs; `watching` sees a stream held elsewhere; over this
 * process's memory (single-node) nothing goes through the coordination; and with Redis down a
 * publish or a control order never throws to its caller, and events cross again once it is back.
 */
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { createServer } from "@/db/queries/servers";
import { createUserWithWorkspace } from "@/db/queries/users";
import { getPersonalWorkspaceId } from "@/db/queries/workspaces";
import { startSession } from "@/lib/auth/sessions";
import { InProcessCoordination, RedisCoordination } from "@/lib/cluster";
import { ClusterControl } from "@/lib/cluster/control";
import { parseServerConfig } from "@/lib/mcp/config";
import type { ServerStatus } from "@/lib/mcp/types";
import { type LiveEvent, StatusEvents } from "@/lib/runtime/status-events";
import { openEventStream } from "@/lib/use-cases/event-stream";
import { startRedis, type TestRedis } from "../../helpers/redis";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";

let redis: TestRedis;
let dir = "";
const closing: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  redis = await startRedis();
  dir = useTempDataDir();
});

afterAll(async () => {
  for (const each of closing.reverse()) await each.close().catch(() => {});
  await redis?.stop();
  removeTempDataDir(dir);
});

/** A "replica": a hub over its own Redis client. */
function replica(): StatusEvents {
  const coordination = new RedisCoordination(redis.url);
  const hub = new StatusEvents(coordination);
  closing.push(coordination, hub);
  return hub;
}

const waitFor = async (check: () => boolean, what: string, ms = 5_000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

const membership = (workspaceId: string): LiveEvent => ({ type: "membership", workspaceId });

/** How many replicas hear `userId`'s channel (Redis's own count of its subscribers). */
async function channelSubscribers(userId: string): Promise<number> {
  const client = createClient({ url: redis.url });
  await client.connect();
  try {
    const counts = (await client.pubSubNumSub(`switchboard:events:${userId}`)) as Record<string, number>;
    return Number(Object.values(counts)[0] ?? 0);
  } finally {
    await client.close();
  }
}

describe("live events across replicas", () => {
  it("an event published on one replica reaches the user's listeners on the other, once, and nobody else's", async () => {
    const [a, b] = [replica(), replica()];
    const onA: LiveEvent[] = [];
    const onB: LiveEvent[] = [];
    const carolOnB: LiveEvent[] = [];
    a.subscribe("bob", (event) => onA.push(event));
    b.subscribe("bob", (event) => onB.push(event));
    b.subscribe("carol", (event) => carolOnB.push(event));
    await Promise.all([a.attached("bob"), b.attached("bob"), b.attached("carol")]);

    a.publish("bob", membership("acme"));
    // The publishing replica's own streams have it at once, not through Redis.
    expect(onA).toEqual([membership("acme")]);
    await waitFor(() => onB.length === 1, "B to get A's event");
    expect(onB).toEqual([membership("acme")]);

    b.publish("bob", membership("globex"));
    await waitFor(() => onA.length === 2, "A to get B's event");
    // Nobody got an event twice (a replica skips its own echo), and carol got none of bob's.
    await new Promise((r) => setTimeout(r, 100));
    expect(onA).toEqual([membership("acme"), membership("globex")]);
    expect(onB).toEqual([membership("acme"), membership("globex")]);
    expect(carolOnB).toEqual([]);
  });

  it("a replica hears a user's channel only while it holds a stream of theirs", async () => {
    const [a, b] = [replica(), replica()];
    expect(await channelSubscribers("dave")).toBe(0);
    const first = b.subscribe("dave", () => {});
    const second = b.subscribe("dave", () => {});
    await b.attached("dave");
    expect(await channelSubscribers("dave")).toBe(1); // one subscription for all of B's tabs
    a.subscribe("dave", () => {});
    await a.attached("dave");
    expect(await channelSubscribers("dave")).toBe(2);
    first();
    expect(b.attached("dave")).not.toBeNull();
    second();
    expect(b.attached("dave")).toBeNull();
    let subscribers = -1;
    for (let i = 0; i < 50 && subscribers !== 1; i++) {
      subscribers = await channelSubscribers("dave");
      if (subscribers !== 1) await new Promise((r) => setTimeout(r, 20));
    }
    expect(subscribers).toBe(1);
  });

  it("watching: a stream held on another replica counts; a user with none anywhere does not", async () => {
    const [a, b] = [replica(), replica()];
    expect(a.watching("erin")).toBe(false);
    b.subscribe("erin", () => {});
    await b.attached("erin");
    // A reads the word in the background and reuses it for a moment: true within a few seconds.
    await waitFor(() => a.watching("erin"), "A to see B's stream", 5_000);
    expect(b.watching("erin")).toBe(true);
    expect(a.watching("frank")).toBe(false);
    await new Promise((r) => setTimeout(r, 100));
    expect(a.watching("frank")).toBe(false);
  });

  it("a GET /api/events body on one replica carries a status published on the other", async () => {
    const db = getDb();
    const record = (await createUserWithWorkspace(db, { email: `gina-${Math.random()}@example.com`, name: "gina", passwordHash: "x" }))!;
    const workspaceId = (await getPersonalWorkspaceId(db, record.id))!;
    const server = await createServer(db, {
      workspaceId,
      name: "mine",
      config: parseServerConfig({ url: "https://example.com/mcp" }, "mine"),
      createdBy: record.id,
    });
    const caller = { id: record.id, sessionId: await startSession(db, record.id) };
    const [a, b] = [replica(), replica()];
    const abort = new AbortController();
    const reader = openEventStream(caller, { hub: b, signal: abort.signal }).getReader();
    const decoder = new TextDecoder();
    let text = "";
    // `ready` comes once B hears the user's channel, so nothing published after it is missed.
    while (!text.includes("event: ready")) text += decoder.decode((await reader.read()).value);
    const status = { userId: record.id, serverId: server.id, serverName: "mine", state: "connected" } as ServerStatus;
    a.publish(record.id, { type: "status", serverId: server.id, status });
    while (!text.includes("event: status")) text += decoder.decode((await reader.read()).value);
    expect(text).toContain(`"serverId":"${server.id}"`);
    abort.abort();
    expect(b.size()).toBe(0);
  });

  it("over this process's memory (single-node) the hub is local only, as before cluster mode", async () => {
    const memory = new InProcessCoordination();
    const hub = new StatusEvents(memory);
    const heard: string[] = [];
    await memory.subscribe("events:hank", (message) => heard.push(message));
    const got: LiveEvent[] = [];
    const stop = hub.subscribe("hank", (event) => got.push(event));
    expect(hub.attached("hank")).toBeNull(); // nothing to wait for: `ready` goes out at once
    hub.publish("hank", membership("acme"));
    expect(got).toEqual([membership("acme")]); // delivered before `publish` returned
    expect(heard).toEqual([]); // nothing through the coordination
    expect(hub.watching("hank")).toBe(true);
    stop();
    expect(hub.watching("hank")).toBe(false);
    expect(await memory.get("events.watching:hank")).toBeNull();
  });

  it("with Redis down, publishing and control orders never throw to the caller; events cross again once it is back", async () => {
    const [a, b] = [replica(), replica()];
    const control = new ClusterControl(new RedisCoordination(redis.url));
    closing.push(control);
    const onA: LiveEvent[] = [];
    const onB: LiveEvent[] = [];
    a.subscribe("ivan", (event) => onA.push(event));
    b.subscribe("ivan", (event) => onB.push(event));
    await Promise.all([a.attached("ivan"), b.attached("ivan")]);

    await redis.kill();
    expect(() => a.publish("ivan", membership("during"))).not.toThrow();
    expect(onA).toEqual([membership("during")]); // this replica's own streams still get it
    await expect(control.send("turns.stop", { userId: "ivan", workspaceId: "acme" })).resolves.toBeUndefined();
    // A stream opened meanwhile waits for its channel (its `ready` with it) instead of missing events.
    const onJudy: LiveEvent[] = [];
    b.subscribe("judy", (event) => onJudy.push(event));
    let judyAttached = false;
    void b.attached("judy")?.then(() => {
      judyAttached = true;
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(judyAttached).toBe(false);

    await redis.start();
    // The clients reconnect and B subscribes again by itself: A's events reach B without a restart.
    const deadline = Date.now() + 15_000;
    while (!onB.some((event) => event.type === "membership" && event.workspaceId === "after")) {
      if (Date.now() > deadline) throw new Error("events did not cross again after Redis came back");
      a.publish("ivan", membership("after"));
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(onB.some((event) => event.type === "membership" && event.workspaceId === "during")).toBe(false);
    await waitFor(() => judyAttached, "the stream opened during the outage to hear its channel");
    a.publish("judy", membership("welcome"));
    await waitFor(() => onJudy.length === 1, "judy's event to reach B");
  }, 30_000);
});
