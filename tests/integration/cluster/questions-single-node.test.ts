/**
 * Questions waiting for a user in single-node mode (no REDIS_URL), through the app's brokers and the
 * routes' use-cases on the test database: every question is a row, and this process holds them all,
 * so an answer settles the waiting request directly (no message is sent); two answers race and one
 * wins; a removed server's questions are withdrawn with their reason; a question too large to show
 * is refused to its server; what a previous run left is withdrawn at start, and a stop withdraws
 * what waits.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { insertQuestion, questionHead } from "@/db/queries/questions";
import { createUserWithWorkspace } from "@/db/queries/users";
import { coordination } from "@/lib/cluster";
import { AppError } from "@/lib/errors";
import { elicitationBroker } from "@/lib/runtime/elicitations";
import { QUESTION_PAYLOAD_MAX_CHARS, QUESTIONS_CHANNEL, questionDesk } from "@/lib/runtime/question-desk";
import { samplingHost } from "@/lib/runtime/sampling";
import { answerElicitation, answerSamplingReview, pendingForUser } from "@/lib/use-cases/user-requests";
import { withdrawServerRequests } from "@/lib/use-cases/withdraw-requests";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";

// The use cases are marked server-only (a bundler marker that throws outside Next's server build).
vi.mock("server-only", () => ({}));

const server = { id: "srv-1", name: "asker", config: { url: "https://mcp.example/mcp" } };
const form = { message: "Your name?", requestedSchema: { type: "object" as const, properties: { name: { type: "string" as const } } } };

let dir: string;
let alice: string;
const published: string[] = [];

/** Ask `userId` through the app's broker; resolves once the question's row is written, with its id and answer. */
async function ask(
  userId: string,
  params: Parameters<ReturnType<typeof elicitationBroker>["request"]>[2] = form,
  signal = new AbortController().signal,
) {
  const before = new Set(
    elicitationBroker()
      .list(userId)
      .map((v) => v.id),
  );
  const answer = elicitationBroker().request(userId, server, params, signal);
  const id = elicitationBroker()
    .list(userId)
    .find((v) => !before.has(v.id))!.id;
  while (!(await questionHead(getDb(), id))) await new Promise((resolve) => setTimeout(resolve, 5));
  return { id, answer };
}

async function refusal(run: Promise<unknown>): Promise<AppError> {
  const error = await run.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

beforeAll(async () => {
  dir = useTempDataDir();
  delete process.env.REDIS_URL;
  alice = (await createUserWithWorkspace(getDb(), { email: "alice@example.com", name: "Alice", passwordHash: "x" }))!.id;
  await coordination().subscribe(QUESTIONS_CHANNEL, (message) => published.push(message));
});

afterAll(() => removeTempDataDir(dir));

describe("questions on a single node", () => {
  it("withdraws at start what a previous run left, and tells the user why", async () => {
    await insertQuestion(getDb(), {
      id: "left-by-a-previous-run",
      userId: alice,
      serverId: server.id,
      kind: "elicitation",
      payload: { serverId: server.id, serverName: "asker", mode: "form", message: "Old?" },
      replica: "previous-run",
      expiresAt: new Date(Date.now() + 60_000),
    });
    const listed = await pendingForUser(alice);
    expect(listed.elicitations).toEqual([]);
    expect(listed.withdrawn).toEqual([
      expect.objectContaining({
        id: "left-by-a-previous-run",
        serverName: "asker",
        message: expect.stringMatching(/restarted or shut down/),
      }),
    ]);
    expect((await refusal(answerElicitation(alice, "left-by-a-previous-run", { action: "decline" }))).code).toBe("pending.withdrawn");
  });

  it("lists the question from its row and settles the waiting request directly; a second answer gets 409", async () => {
    const { id, answer } = await ask(alice);
    const review = samplingHost().reviews.wait(
      alice,
      { serverId: server.id, serverName: "asker", stage: "request", messages: [{ role: "user", text: "hi" }], maxTokens: 5, model: "m" },
      new AbortController().signal,
    );
    // Listed once its row is written (the review's insert may still be under way).
    const listed = await vi.waitFor(async () => {
      const now = await pendingForUser(alice);
      expect(now.sampling).toHaveLength(1);
      return now;
    });
    expect(listed.elicitations).toEqual([expect.objectContaining({ id, serverName: "asker", message: "Your name?", mode: "form" })]);

    const results = await Promise.allSettled([
      answerElicitation(alice, id, { action: "accept", content: { name: "Ada" } }),
      answerElicitation(alice, id, { action: "accept", content: { name: "Eve" } }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(results.find((r) => r.status === "rejected")).toMatchObject({ reason: { code: "pending.answered", status: 409 } });
    const delivered = await answer;
    expect(["Ada", "Eve"]).toContain(delivered.content?.name);

    await answerSamplingReview(alice, listed.sampling[0].id, { action: "deny" });
    await expect(review).resolves.toEqual({ action: "deny" });
    expect((await pendingForUser(alice)).elicitations).toEqual([]);
    // One process holds every question: nothing went through the coordination's messages.
    expect(published).toEqual([]);
    // The answer is not kept once delivered.
    await vi.waitFor(async () => expect(await questionHead(getDb(), id)).toMatchObject({ state: "answered" }));
  });

  it("withdraws a removed server's questions: the server gets cancel, a late answer the reason", async () => {
    const { id, answer } = await ask(alice);
    expect(await withdrawServerRequests(alice, [server.id])).toBeGreaterThanOrEqual(1);
    await expect(answer).resolves.toEqual({ action: "cancel" });
    const refused = await refusal(answerElicitation(alice, id, { action: "accept", content: { name: "late" } }));
    expect(refused).toMatchObject({ code: "pending.withdrawn", status: 409 });
    expect(refused.message).toMatch(/removed or changed/);
    // Not reported as "ask again": the user's access or the server changed, not a replica.
    expect((await pendingForUser(alice)).withdrawn.map((w) => w.id)).not.toContain(id);
  });

  it("a cancelled request's row is withdrawn; an unknown id is a 404", async () => {
    const abort = new AbortController();
    const { id, answer } = await ask(alice, form, abort.signal);
    abort.abort();
    await expect(answer).resolves.toEqual({ action: "cancel" });
    await vi.waitFor(async () => expect(await questionHead(getDb(), id)).toMatchObject({ state: "withdrawn", reason: "cancelled" }));
    expect((await refusal(answerElicitation(alice, "no-such-question", { action: "decline" }))).code).toBe("pending.not_found");
  });

  it("refuses a question too large to show, without asking", async () => {
    const huge = { ...form, message: "x".repeat(QUESTION_PAYLOAD_MAX_CHARS) };
    await expect(elicitationBroker().request(alice, server, huge, new AbortController().signal)).rejects.toThrow(/too large to show/);
    expect(elicitationBroker().list(alice)).toEqual([]);
    expect((await pendingForUser(alice)).elicitations).toEqual([]);
  });

  it("a stop withdraws what waits (the server gets cancel) and refuses new questions", async () => {
    const { id, answer } = await ask(alice);
    await questionDesk().shutdown();
    await expect(answer).resolves.toEqual({ action: "cancel" });
    expect(await questionHead(getDb(), id)).toMatchObject({ state: "withdrawn", reason: "replica_stopped" });
    await expect(elicitationBroker().request(alice, server, form, new AbortController().signal)).rejects.toThrow(/shutting down/);
  });
});
