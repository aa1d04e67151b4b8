/**
 * Questions waiting for a user across replicas (lib/runtime/question-desk.ts), with real processes,
 * a real Redis and the test database (SQLite, or Postgres with SWITCHBOARD_TEST_DB=postgres): a
 * holder process (tests/fixtures/cluster/question-holder.ts) asks through the app's brokers; this
 * process is another replica, which lists and answers through the routes' use-cases. The answer
 * reaches the holder's waiting request; two answers race and one wins; a holder killed with -9 has
 * its question withdrawn with a clear message; Redis down gives a clear 503 and loses nothing; an
 * answer whose message was lost still arrives; a holder that stops or restarts withdraws its own.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import path from "node:path";
import readline from "node:readline";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { answerQuestion, questionHead } from "@/db/queries/questions";
import { createServer } from "@/db/queries/servers";
import { createUserWithWorkspace } from "@/db/queries/users";
import { getPersonalWorkspaceId } from "@/db/queries/workspaces";
import { coordination } from "@/lib/cluster";
import { REPLICA_TTL_MS, replicaAlive } from "@/lib/cluster/replicas";
import { AppError } from "@/lib/errors";
import { parseServerConfig } from "@/lib/mcp/config";
import { answerElicitation, answerSamplingReview, pendingForUser } from "@/lib/use-cases/user-requests";
import { startRedis, type TestRedis } from "../../helpers/redis";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";

// The use cases are marked server-only (a bundler marker that throws outside Next's server build).
vi.mock("server-only", () => ({}));

const HOLDER = path.join("tests", "fixtures", "cluster", "question-holder.ts");

let dir: string;
let redis: TestRedis;
let alice: string;
let bob: string;
let server: { id: string; name: string };
const holders: Holder[] = [];

/** A holder process and the JSON lines it printed. */
interface Holder {
  proc: ChildProcessWithoutNullStreams;
  lines: Record<string, unknown>[];
  next(match: (line: Record<string, unknown>) => boolean, ms?: number): Promise<Record<string, unknown>>;
  ask(kind: "elicitation" | "sampling", message: string): Promise<string>;
}

function startHolder(replica: string): Promise<Holder> {
  // tsx as a loader of this very process (its CLI would run the script in a child a kill -9 misses).
  const proc = spawn(process.execPath, ["--import", "tsx", HOLDER], {
    env: { ...process.env, SWITCHBOARD_REPLICA_ID: replica },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  proc.stderr.on("data", (chunk) => (stderr += chunk));
  const lines: Record<string, unknown>[] = [];
  const waiters = new Set<() => void>();
  readline.createInterface({ input: proc.stdout }).on("line", (line) => {
    lines.push(JSON.parse(line) as Record<string, unknown>);
    for (const wake of waiters) wake();
  });
  const holder: Holder = {
    proc,
    lines,
    next: (match, ms = 30_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = lines.find(match);
          if (!found) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`the holder did not print the line awaited; it printed ${JSON.stringify(lines)}; stderr: ${stderr}`));
        }, ms);
        waiters.add(check);
        check();
      }),
    async ask(kind, message) {
      const before = lines.length;
      proc.stdin.write(`${JSON.stringify({ kind, userId: alice, server, message })}\n`);
      const parked = await holder.next((line, i = lines.indexOf(line)) => i >= before && ("parked" in line || "error" in line));
      if (!parked.parked) throw new Error(String(parked.error));
      return String(parked.parked);
    },
  };
  holders.push(holder);
  return holder.next((line) => line.ready === true).then(() => holder);
}

const settledLine = (holder: Holder, id: string, ms?: number) => holder.next((line) => line.settled === id, ms).then((line) => line.result);

/** The AppError `run` rejects with. */
async function refusal(run: Promise<unknown>): Promise<AppError> {
  const error = await run.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

function killed(holder: Holder): Promise<void> {
  return new Promise((resolve) => {
    if (holder.proc.exitCode !== null || holder.proc.signalCode !== null) return resolve();
    holder.proc.once("exit", () => resolve());
    holder.proc.kill("SIGKILL");
  });
}

/** Run `read` every half second until `done` holds for what it read (20 s at most). */
async function pollUntil<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`still not done: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Wait until replica `id`'s heartbeat lapsed (lib/cluster/replicas.ts: 6 s after its last beat). */
const heartbeatLapsed = (id: string) =>
  pollUntil(
    () => replicaAlive(id),
    (alive) => !alive,
  );
/** Wait until replica `id`'s heartbeat is back (within a beat of its reconnection). */
const heartbeatBack = (id: string) =>
  pollUntil(
    () => replicaAlive(id).catch(() => false),
    (alive) => alive,
  );

beforeAll(async () => {
  dir = useTempDataDir();
  redis = await startRedis();
  // This process is replica "answerer" of a cluster: set before anything makes its coordination.
  process.env.REDIS_URL = redis.url;
  process.env.SWITCHBOARD_REPLICA_ID = "answerer";
  const db = getDb();
  const a = (await createUserWithWorkspace(db, { email: "alice@example.com", name: "Alice", passwordHash: "x" }))!;
  const b = (await createUserWithWorkspace(db, { email: "bob@example.com", name: "Bob", passwordHash: "x" }))!;
  alice = a.id;
  bob = b.id;
  const stored = await createServer(db, {
    workspaceId: (await getPersonalWorkspaceId(db, a.id))!,
    name: "asker",
    config: parseServerConfig({ url: "https://mcp.example/mcp" }, "asker"),
    createdBy: alice,
  });
  server = { id: stored.id, name: "asker" };
});

afterAll(async () => {
  await Promise.all(holders.map(killed));
  delete process.env.REDIS_URL;
  delete process.env.SWITCHBOARD_REPLICA_ID;
  await redis?.stop();
  removeTempDataDir(dir);
});

describe("questions across replicas", () => {
  it("a question asked on one replica is listed and answered on another; the waiting request gets the answer", async () => {
    const holder = await startHolder("holder-a");
    const asked = await holder.ask("elicitation", "Which folder?");
    const reviewed = await holder.ask("sampling", "Summarise the folder");

    const listed = await pendingForUser(alice);
    expect(listed.elicitations).toEqual([
      expect.objectContaining({ id: asked, serverId: server.id, serverName: "asker", mode: "form", message: "Which folder?" }),
    ]);
    expect(listed.sampling).toEqual([
      expect.objectContaining({ id: reviewed, stage: "request", messages: [{ role: "user", text: "Summarise the folder" }] }),
    ]);
    // Nobody else sees or answers them; an id of the other kind is not one.
    expect(await pendingForUser(bob)).toEqual({ elicitations: [], sampling: [], withdrawn: [] });
    expect((await refusal(answerElicitation(bob, asked, { action: "decline" }))).code).toBe("pending.not_found");
    expect((await refusal(answerSamplingReview(alice, asked, { action: "deny" }))).code).toBe("pending.not_found");

    // Two answers at once (two tabs on two replicas): one wins, the other hears so.
    const results = await Promise.allSettled([
      answerElicitation(alice, asked, { action: "accept", content: { answer: "first" } }),
      answerElicitation(alice, asked, { action: "accept", content: { answer: "second" } }),
    ]);
    const won = results.findIndex((r) => r.status === "fulfilled");
    expect(won).not.toBe(-1);
    const lost = results[1 - won];
    expect(lost.status).toBe("rejected");
    expect((lost as PromiseRejectedResult).reason).toMatchObject({ code: "pending.answered", status: 409 });
    expect(await settledLine(holder, asked, 10_000)).toEqual({ action: "accept", content: { answer: won === 0 ? "first" : "second" } });

    await answerSamplingReview(alice, reviewed, { action: "approve", text: "Summarise it briefly" });
    expect(await settledLine(holder, reviewed, 10_000)).toEqual({ action: "approve", text: "Summarise it briefly" });

    // Settled: no longer listed; the holder took the answer off the row (nothing typed lingers).
    expect((await pendingForUser(alice)).elicitations).toEqual([]);
    const row = await questionHead(getDb(), asked);
    expect(row?.state).toBe("answered");
    expect((await refusal(answerElicitation(alice, asked, { action: "decline" }))).code).toBe("pending.answered");
  }, 90_000);

  it("an answer whose message was lost still reaches the holder (it reads its rows)", async () => {
    const holder = await startHolder("holder-sweep");
    const asked = await holder.ask("elicitation", "Sweep me");
    // Written as another replica would, with no message published.
    expect(await answerQuestion(getDb(), asked, { action: "accept", content: { answer: "from the row" } })).toBe(true);
    expect(await settledLine(holder, asked, 10_000)).toEqual({ action: "accept", content: { answer: "from the row" } });
  }, 60_000);

  it("with Redis down, an answer for another replica is a clear 503 and changes nothing; after it, the answer arrives", async () => {
    const holder = await startHolder("holder-redis");
    const asked = await holder.ask("elicitation", "Through an outage?");
    await redis.kill();
    const refused = await refusal(answerElicitation(alice, asked, { action: "accept", content: { answer: "lost?" } }));
    expect(refused).toMatchObject({ code: "cluster.unavailable", status: 503 });
    expect((await questionHead(getDb(), asked))?.state).toBe("pending");
    // Listing still shows it (its holder's liveness is unknown, not known to be gone).
    expect((await pendingForUser(alice)).elicitations.map((e) => e.id)).toContain(asked);

    await redis.start();
    await heartbeatBack("holder-redis");
    // As right after a Redis restarted empty: the holder's heartbeat is missing until its next beat.
    // That must not withdraw its question: still listed, and an answer waits for the beat and arrives.
    await coordination().drop("replica:holder-redis");
    expect(await replicaAlive("holder-redis")).toBe(false);
    expect((await pendingForUser(alice)).elicitations.map((e) => e.id)).toContain(asked);
    await answerElicitation(alice, asked, { action: "accept", content: { answer: "after" } });
    expect(await settledLine(holder, asked, 10_000)).toEqual({ action: "accept", content: { answer: "after" } });
  }, 90_000);

  it("a holder killed with -9: its question is withdrawn with a clear message, never answered into the void", async () => {
    const holder = await startHolder("holder-dead");
    const asked = await holder.ask("elicitation", "Still there?");
    await killed(holder);
    await heartbeatLapsed("holder-dead");
    // Listed while the lapse is young; withdrawn once it lasted REPLICA_TTL_MS, as a tab polling sees it.
    expect((await pendingForUser(alice)).elicitations.map((e) => e.id)).toContain(asked);
    const listed = await pollUntil(
      () => pendingForUser(alice),
      (now) => now.withdrawn.some((w) => w.id === asked),
    );
    expect(listed.elicitations.map((e) => e.id)).not.toContain(asked);
    expect(listed.withdrawn).toContainEqual(
      expect.objectContaining({
        id: asked,
        kind: "elicitation",
        serverName: "asker",
        message: expect.stringMatching(/connection that asked .* is gone.*Ask again/),
      }),
    );
    const refused = await refusal(answerElicitation(alice, asked, { action: "accept", content: { answer: "void" } }));
    expect(refused).toMatchObject({ code: "pending.withdrawn", status: 409 });
    expect(refused.message).toMatch(/gone/);
    expect(await questionHead(getDb(), asked)).toMatchObject({ state: "withdrawn", reason: "replica_gone" });
  }, 60_000);

  it("a holder answered just after it died: the answer is refused, never recorded", async () => {
    const holder = await startHolder("holder-gone-early");
    const asked = await holder.ask("sampling", "Quick");
    await killed(holder);
    await heartbeatLapsed("holder-gone-early");
    // Answered before any listing noticed: the answer waits until the lapse counts (REPLICA_TTL_MS),
    // then is refused with the reason; no answer is stored.
    const started = Date.now();
    const refused = await refusal(answerSamplingReview(alice, asked, { action: "approve" }));
    expect(refused).toMatchObject({ code: "pending.withdrawn", status: 409 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(REPLICA_TTL_MS - 100);
    expect(Date.now() - started).toBeLessThan(REPLICA_TTL_MS + 3_000);
    expect(await questionHead(getDb(), asked)).toMatchObject({ state: "withdrawn", reason: "replica_gone" });
  }, 60_000);

  it("a holder that stops withdraws its questions (their servers get cancel); one restarted under its id withdraws what it left", async () => {
    const stopping = await startHolder("holder-stop");
    const asked = await stopping.ask("elicitation", "Before the deploy?");
    stopping.proc.kill("SIGTERM");
    expect(await settledLine(stopping, asked, 10_000)).toEqual({ action: "cancel" });
    await stopping.next((line) => line.stopped === true);
    expect(await questionHead(getDb(), asked)).toMatchObject({ state: "withdrawn", reason: "replica_stopped" });
    const listed = await pendingForUser(alice);
    expect(listed.withdrawn).toContainEqual(
      expect.objectContaining({ id: asked, message: expect.stringMatching(/restarted or shut down.*Ask again/) }),
    );
    expect((await refusal(answerElicitation(alice, asked, { action: "decline" }))).code).toBe("pending.withdrawn");

    // Killed, then started again under the same replica id at once (its heartbeat never lapses).
    const first = await startHolder("holder-again");
    const left = await first.ask("elicitation", "Left behind?");
    await killed(first);
    await startHolder("holder-again");
    expect(await questionHead(getDb(), left)).toMatchObject({ state: "withdrawn", reason: "replica_stopped" });
  }, 90_000);
});
