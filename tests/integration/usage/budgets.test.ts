/**
 * Monthly budgets (docs/usage.md#budgets) through the chat's use case (`chatTurnResponse`, what
 * `POST /api/chat` calls) with the scripted LLM reporting 10 input + 5 output tokens per request:
 * the turn past the budget is refused with 429 `usage.budget_exceeded` naming the reset date, the
 * 80% warning reaches the chat's stream, and a turn already running when the budget runs out finishes.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { createChat } from "@/db/queries/chats";
import { upsertMembership } from "@/db/queries/memberships";
import { upsertBudget } from "@/db/queries/usage-settings";
import { createUserWithWorkspace } from "@/db/queries/users";
import { createTeamWorkspace } from "@/db/queries/workspaces";
import type { WorkspaceActor } from "@/lib/domain/workspace";
import { AppError } from "@/lib/errors";
import { setWorkspaceModel } from "@/lib/models/workspace-default";
import { chatTurnResponse } from "@/lib/use-cases/chat-turn";
import { recordModelUsage } from "@/lib/usage/record";
import { monthOf } from "@/lib/usage/budgets";
import { closeGlobalPool } from "@/lib/mcp/global-pool";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { startScriptedLlm, type ScriptedLlm } from "../agent/helpers";

// The use cases are marked server-only (a bundler marker that throws outside Next's server build).
vi.mock("server-only", () => ({}));

let llm: ScriptedLlm;
let dir = "";
let teamId = "";

beforeAll(async () => {
  dir = useTempDataDir();
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
  await closeGlobalPool();
  await llm?.close();
  removeTempDataDir(dir);
});

/** A member of the team with a user budget of `tokens` a month. */
async function member(tokens: number) {
  const db = getDb();
  const user = (await createUserWithWorkspace(db, { email: `m-${Math.random()}@example.com`, name: "Member", passwordHash: "x" }))!;
  await upsertMembership(db, { workspaceId: teamId, userId: user.id, role: "member" });
  await upsertBudget(db, { scope: "user", targetId: user.id, unit: "tokens", monthlyLimit: tokens, updatedBy: null });
  return { id: user.id, workspaceId: teamId };
}

/** One turn through the use case, its whole stream read as text. */
async function turn(caller: { id: string; workspaceId: string }, text: string): Promise<string> {
  const chat = await createChat(getDb(), { ownerId: caller.id, workspaceId: teamId });
  const response = await chatTurnResponse(caller, { chatId: chat.id, message: { text, resources: [] } } as never);
  return readable(await response.text());
}

/** The stream's events with the answer's text deltas joined, so assertions read the words as the chat shows them. */
function readable(sse: string): string {
  const events = sse
    .split("\n")
    .filter((line) => line.startsWith("data: {"))
    .map((line) => JSON.parse(line.slice(6)) as { type: string; delta?: string });
  const answer = events
    .filter((e) => e.type === "text-delta")
    .map((e) => e.delta)
    .join("");
  return `${sse}\n${answer}`;
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe("monthly budgets", () => {
  it("the turn after the budget is used up gets 429 usage.budget_exceeded with the reset date", async () => {
    const caller = await member(30);
    expect(await turn(caller, "one")).toContain("You said: one");
    expect(await turn(caller, "two")).toContain("You said: two"); // 30 of 30 tokens now
    const error = await refusal(turn(caller, "three"));
    expect(error.code).toBe("usage.budget_exceeded");
    expect(error.status).toBe(429);
    const reset = monthOf(new Date()).resetsAt.toISOString().slice(0, 10);
    expect(error.message).toContain(`resets on ${reset}`);
    expect(error.retryAfterSeconds).toBeGreaterThan(0);
  }, 60_000);

  it("at 80% the chat's stream carries the warning; under it, none", async () => {
    const caller = await member(36);
    expect(await turn(caller, "first")).not.toContain("monthly budget");
    await turn(caller, "second"); // 30 of 36 tokens: 83%
    const third = await turn(caller, "third");
    expect(third).toContain("Your monthly budget of 36 tokens is 83% used");
    expect(third).toContain("You said: third");
  }, 60_000);

  it("a workspace budget refuses every member once used up", async () => {
    const db = getDb();
    const caller = await member(1_000_000);
    await upsertBudget(db, { scope: "workspace", targetId: teamId, unit: "cents", monthlyLimit: 1, updatedBy: null });
    try {
      // One cent of a $10/M-input model, recorded for someone else in the workspace.
      await recordModelUsage(db, {
        userId: "someone",
        workspaceId: teamId,
        source: "chat",
        provider: "openai",
        model: "gpt-4o",
        usage: { inputTokens: 4000, outputTokens: 0 },
        latencyMs: 1,
        outcome: "ok",
      });
      const error = await refusal(turn(caller, "blocked"));
      expect(error.message).toContain("This workspace's monthly budget of $0.01 is used up");
    } finally {
      await upsertBudget(db, { scope: "workspace", targetId: teamId, unit: "cents", monthlyLimit: 1_000_000, updatedBy: null });
    }
  }, 60_000);

  it("a turn already running when the budget runs out finishes; the next one is refused", async () => {
    const caller = await member(20);
    const chat = await createChat(getDb(), { ownerId: caller.id, workspaceId: teamId });
    const running = await chatTurnResponse(caller, { chatId: chat.id, message: { text: "[[slow]]", resources: [] } } as never);
    // Meanwhile the budget is used up elsewhere.
    await recordModelUsage(getDb(), {
      userId: caller.id,
      workspaceId: teamId,
      source: "chat",
      provider: "openai-compatible",
      model: "scripted",
      usage: { inputTokens: 100, outputTokens: 0 },
      latencyMs: 1,
      outcome: "ok",
    });
    const error = await refusal(turn(caller, "after"));
    expect(error.code).toBe("usage.budget_exceeded");
    const text = readable(await running.text());
    expect(text).toContain("word200");
    expect(text).toContain('"type":"finish"');
  }, 60_000);
});
