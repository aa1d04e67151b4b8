/**
 * The live event stream of `GET /api/events` (lib/use-cases/event-stream.ts) over a real SQLite file:
 * a caller receives their own statuses for servers of workspaces they belong to, never another
 * user's, stops receiving a workspace's servers once removed from it, and the stream ends when
 * the session ends.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { deleteMembership, upsertMembership } from "@/db/queries/memberships";
import { createServer } from "@/db/queries/servers";
import { createUserWithWorkspace } from "@/db/queries/users";
import { createTeamWorkspace, getPersonalWorkspaceId } from "@/db/queries/workspaces";
import { endOneSession, startSession } from "@/lib/auth/sessions";
import { openEventStream } from "@/lib/use-cases/event-stream";
import { publishStatus, statusEvents } from "@/lib/runtime/status-events";
import { parseServerConfig } from "@/lib/mcp/config";
import type { ServerStatus } from "@/lib/mcp/types";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";

let dir = "";
beforeAll(() => {
  dir = useTempDataDir();
});
afterAll(() => removeTempDataDir(dir));

async function user(tag: string) {
  const db = getDb();
  const record = (await createUserWithWorkspace(db, { email: `${tag}-${Math.random()}@example.com`, name: tag, passwordHash: "x" }))!;
  return { id: record.id, workspaceId: (await getPersonalWorkspaceId(db, record.id))!, sessionId: await startSession(db, record.id) };
}

async function server(workspaceId: string, createdBy: string, name: string) {
  return await createServer(getDb(), { workspaceId, name, config: parseServerConfig({ url: "https://example.com/mcp" }, name), createdBy });
}

function status(userId: string, serverId: string, state: ServerStatus["state"]): ServerStatus {
  return { userId, serverId, serverName: "s", state } as ServerStatus;
}

/** Read events until `count` named events arrived or the stream ended. */
async function read(stream: ReadableStream<Uint8Array>, until: (events: { name: string; data: unknown }[]) => boolean) {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  const events: { name: string; data: unknown }[] = [];
  let buffer = "";
  let ended = false;
  while (!until(events)) {
    const { value, done } = await reader.read();
    if (done) {
      ended = true;
      break;
    }
    buffer += decoder.decode(value);
    let cut = buffer.indexOf("\n\n");
    while (cut >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const name = /^event: (.+)$/m.exec(block)?.[1];
      const data = /^data: (.+)$/m.exec(block)?.[1];
      if (name && data) events.push({ name, data: JSON.parse(data) });
      cut = buffer.indexOf("\n\n");
    }
  }
  reader.releaseLock();
  return { events, ended };
}

describe("GET /api/events stream", () => {
  it("delivers only the caller's own statuses of servers in their workspaces", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const mine = await server(alice.workspaceId, alice.id, "mine");
    const team = await createTeamWorkspace(getDb(), {
      name: "Team",
      slug: `team-${Math.random().toString(36).slice(2, 8)}`,
      ownerId: bob.id,
    });
    const shared = await server(team.id, bob.id, "shared");
    await upsertMembership(getDb(), { workspaceId: team.id, userId: alice.id, role: "member" });

    const abort = new AbortController();
    const stream = openEventStream(alice, { signal: abort.signal });
    const first = read(stream, (events) => events.filter((e) => e.name === "status").length >= 2);
    await new Promise((r) => setTimeout(r, 10));
    publishStatus(status(bob.id, shared.id, "connected")); // bob's own connection: not alice's
    publishStatus(status(alice.id, mine.id, "connecting"));
    publishStatus(status(alice.id, shared.id, "connected"));
    const { events } = await first;
    expect(events[0].name).toBe("ready");
    expect(events.filter((e) => e.name === "status").map((e) => (e.data as { serverId: string }).serverId)).toEqual([mine.id, shared.id]);

    // Removed from the team: its servers' events stop at once, her own still arrive.
    await deleteMembership(getDb(), { workspaceId: team.id, userId: alice.id });
    const second = read(stream, (events) => events.length >= 1);
    publishStatus(status(alice.id, shared.id, "reconnecting"));
    publishStatus(status(alice.id, mine.id, "connected"));
    const next = await second;
    expect(next.events.map((e) => (e.data as ServerStatus).serverId)).toEqual([mine.id]);

    expect(statusEvents().watching(alice.id)).toBe(true);
    abort.abort();
    expect((await read(stream, () => false)).ended).toBe(true);
    expect(statusEvents().size()).toBe(0);
    // Nobody watches now: the pool stops pushing her call figures (lib/mcp/status-push.ts).
    expect(statusEvents().watching(alice.id)).toBe(false);
  });

  it("ends when the session ends (sign-out), at the next heartbeat", async () => {
    const carol = await user("carol");
    const stream = openEventStream(carol, { heartbeatMs: 30 });
    await endOneSession(getDb(), carol.sessionId);
    const { ended } = await read(stream, () => false);
    expect(ended).toBe(true);
  });
});
