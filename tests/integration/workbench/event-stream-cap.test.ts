/**
 * Event streams are capped per user and per instance (`GET /api/events`, docs/limits.md): the N+1th
 * stream of a user is refused with 429, and a stream that ends — the browser went away, the session
 * ended, the consumer cancelled — frees its slot. Streams as the route opens them, over a real SQLite file.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { createUserWithWorkspace } from "@/db/queries/users";
import { startSession } from "@/lib/auth/sessions";
import { errorResponse } from "@/lib/http";
import { openEventStream } from "@/lib/use-cases/event-stream";
import { acquireEventStream } from "@/lib/quotas";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";

const PER_USER = 4;
const TOTAL = 6;
let dir = "";

beforeAll(() => {
  // Read once, at the quotas' first use (this file's own process).
  process.env.SWITCHBOARD_QUOTA_EVENT_STREAMS_PER_USER = String(PER_USER);
  process.env.SWITCHBOARD_QUOTA_EVENT_STREAMS_TOTAL = String(TOTAL);
  dir = useTempDataDir();
});
afterAll(() => removeTempDataDir(dir));

async function user(tag: string) {
  const db = getDb();
  const record = (await createUserWithWorkspace(db, { email: `${tag}-${Math.random()}@example.com`, name: tag, passwordHash: "x" }))!;
  return { id: record.id, sessionId: await startSession(db, record.id) };
}

/** Open a stream as `GET /api/events` does: a slot first, freed when the stream ends. */
async function open(caller: { id: string; sessionId: string }) {
  const release = await acquireEventStream(caller.id);
  const abort = new AbortController();
  const stream = openEventStream(caller, { signal: abort.signal, onClose: release, heartbeatMs: 60_000 });
  return { stream, abort };
}

async function refusal(caller: { id: string; sessionId: string }) {
  try {
    await open(caller);
  } catch (error) {
    const response = errorResponse(error);
    return { status: response.status, retryAfter: response.headers.get("retry-after"), body: await response.json() };
  }
  return null;
}

describe("event stream caps", () => {
  it("refuses the N+1th stream of one user with 429, and a closed stream frees its slot", async () => {
    const alice = await user("alice");
    const streams = [];
    for (let i = 0; i < PER_USER; i++) streams.push(await open(alice));
    const refused = await refusal(alice);
    expect(refused).toMatchObject({ status: 429, body: { code: "quota.exceeded" } });
    expect(refused?.body.message).toContain("SWITCHBOARD_QUOTA_EVENT_STREAMS_PER_USER");
    expect(Number(refused?.retryAfter)).toBeGreaterThan(0);

    // The browser goes away: the request's signal aborts, the stream ends, the slot is free again.
    streams[0].abort.abort();
    const again = await open(alice);
    expect(await refusal(alice)).toMatchObject({ status: 429 });

    // A consumer that cancels (Next when the socket closes) frees one too.
    await streams[1].stream.cancel();
    streams.push(await open(alice));
    for (const s of [...streams, again]) s.abort.abort();
  });

  it("a stream probe (once) holds no slot after it answered", async () => {
    const carol = await user("carol");
    for (let i = 0; i < PER_USER * 3; i++) {
      const release = await acquireEventStream(carol.id);
      const reader = openEventStream(carol, { once: true, onClose: release }).getReader();
      while (!(await reader.read()).done) {}
    }
    const held = [];
    for (let i = 0; i < PER_USER; i++) held.push(await open(carol));
    for (const s of held) s.abort.abort();
  });

  it("refuses past the instance's cap whoever asks, and the user who was refused keeps no slot", async () => {
    const users = await Promise.all(Array.from({ length: TOTAL }, async (_, i) => await user(`u${i}`)));
    const streams = [];
    for (const each of users) streams.push(await open(each));
    const late = await user("late");
    const refused = await refusal(late);
    expect(refused).toMatchObject({ status: 429, body: { code: "quota.exceeded" } });
    expect(refused?.body.message).toContain("SWITCHBOARD_QUOTA_EVENT_STREAMS_TOTAL");
    streams[0].abort.abort();
    // The refused user's own count was given back: they can now hold a stream.
    const now = await open(late);
    for (const s of [...streams, now]) s.abort.abort();
  });
});
