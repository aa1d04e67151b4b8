/**
 * Usage records (docs/usage.md) through the real openai-compatible provider (the scripted LLM, which
 * reports known token counts) and a real MCP server (server-everything over stdio), with the pool's
 * `onRequestEnd` wired as the app wires it: a chat turn with two tool calls, sampling, the aggregate
 * queries against the rows, a price change, and retention.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { createChat } from "@/db/queries/chats";
import { upsertMembership } from "@/db/queries/memberships";
import { updateServerTrust } from "@/db/queries/server-trust";
import { createServer, toServerDefinition } from "@/db/queries/servers";
import { usageByDay, usageByMember, usageByModel, usageByServer, usageByTool, type UsageScope } from "@/db/queries/usage-reports";
import { flushUsage } from "@/db/queries/usage-rows";
import { INSTANCE_SCOPE, upsertPrice } from "@/db/queries/usage-settings";
import { createUserWithWorkspace } from "@/db/queries/users";
import { createTeamWorkspace } from "@/db/queries/workspaces";
import { usageDaily, usageMcpRequests, usageModelRequests } from "@/db/schema";
import type { WorkspaceActor } from "@/lib/domain/workspace";
import { McpPool } from "@/lib/mcp";
import { parseServerConfig } from "@/lib/mcp/config";
import { setWorkspaceModel } from "@/lib/models/workspace-default";
import { SamplingHost } from "@/lib/runtime/sampling";
import { recordMcpRequest } from "@/lib/usage/record";
import { applyUsageRetention, pruneUnderLease } from "@/lib/usage/retention";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { runTurn, say, startScriptedLlm, type ScriptedLlm } from "../agent/helpers";
import { EVERYTHING } from "../mcp/helpers";
import { all } from "../../../db/exec";

let llm: ScriptedLlm;
let dir = "";
const host = new SamplingHost();
// Wired as lib/runtime/engine.ts wires the app's pool.
const pool = new McpPool({ onSampling: host.provider, onRequestEnd: async (event) => await recordMcpRequest(getDb(), event) });
const people = { owner: "", member: "" };
let teamId = "";

beforeAll(async () => {
  dir = useTempDataDir();
  for (const key of ["SWITCHBOARD_LLM_PROVIDER", "SWITCHBOARD_LLM_MODEL", "SWITCHBOARD_LLM_BASE_URL"]) delete process.env[key];
  process.env.SWITCHBOARD_ALLOWED_HOSTS = "127.0.0.1";
  llm = await startScriptedLlm();
  const db = getDb();
  const person = async (name: string) => (await createUserWithWorkspace(db, { email: `${name}@example.com`, name, passwordHash: "x" }))!.id;
  people.owner = await person("owner");
  const team = await createTeamWorkspace(db, { name: "Team", slug: "team", ownerId: people.owner });
  teamId = team.id;
  people.member = await person("member");
  await upsertMembership(db, { workspaceId: teamId, userId: people.member, role: "member" });
  const owner = { id: people.owner, workspaceId: teamId, role: "owner", workspace: team } as WorkspaceActor;
  await setWorkspaceModel(db, owner, {
    provider: "openai-compatible",
    model: "scripted",
    baseUrl: llm.baseUrl,
    apiKey: null,
    clearApiKey: false,
  });
});
afterAll(async () => {
  await pool.closeAll();
  await llm?.close();
  removeTempDataDir(dir);
});

async function everything(name: string) {
  const config = parseServerConfig({ command: process.execPath, args: [EVERYTHING, "stdio"], sampling: { review: false } }, name);
  const server = await toServerDefinition(
    getDb(),
    await createServer(getDb(), { workspaceId: teamId, name, config, createdBy: people.owner }),
  );
  await updateServerTrust(getDb(), server.id, { trusted: true }, people.owner);
  return server;
}

async function turn(userId: string, server: Awaited<ReturnType<typeof everything>>, text: string) {
  const chat = await createChat(getDb(), { ownerId: userId, workspaceId: teamId });
  await runTurn({ pool, llm, userId, workspaceId: teamId, chatId: chat.id, servers: [server], request: say(text) });
  await flushUsage(getDb());
  return chat.id;
}

const modelRows = (chatId: string) => all(getDb().select().from(usageModelRequests).where(eq(usageModelRequests.chatId, chatId)));

describe("usage records", () => {
  it("a turn with two tool calls records its two model requests (tokens as reported, priced) and two MCP rows", async () => {
    await upsertPrice(getDb(), {
      scope: INSTANCE_SCOPE,
      provider: "openai-compatible",
      model: "scripted",
      inputMicrosPerM: 1_000_000,
      outputMicrosPerM: 2_000_000,
      cachedMicrosPerM: 500_000,
      updatedBy: null,
    });
    const server = await everything("tools");
    const chatId = await turn(people.member, server, 'both [[call:echo {"message":"one"}]] [[call:echo {"message":"two"}]]');

    const models = await modelRows(chatId);
    // Step 1 asks for the tools, step 2 answers with their results.
    expect(models).toHaveLength(2);
    for (const row of models) {
      expect(row).toMatchObject({
        userId: people.member,
        workspaceId: teamId,
        source: "chat",
        provider: "openai-compatible",
        model: "scripted",
        inputTokens: 10,
        outputTokens: 5,
        cachedTokens: 4,
        reasoningTokens: 2,
        outcome: "ok",
      });
      // (10 − 4) × $1/M + 4 × $0.50/M + 5 × $2/M = 18 µ$
      expect(row.costMicros).toBe(18);
      expect(row.latencyMs).toBeGreaterThanOrEqual(0);
    }

    const calls = await all(getDb().select().from(usageMcpRequests).where(eq(usageMcpRequests.serverId, server.id)));
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      expect(call).toMatchObject({
        userId: people.member,
        workspaceId: teamId,
        serverName: "tools",
        kind: "tool",
        name: "echo",
        outcome: "ok",
      });
      expect(call.bytesIn).toBe(Buffer.byteLength(JSON.stringify({ message: "one" })));
      expect(call.bytesOut).toBeGreaterThan(0);
    }
  }, 60_000);

  it("a price change leaves the costs already recorded as they were", async () => {
    const server = await everything("pricing");
    const before = await turn(people.owner, server, "hello");
    await upsertPrice(getDb(), {
      scope: INSTANCE_SCOPE,
      provider: "openai-compatible",
      model: "scripted",
      inputMicrosPerM: 10_000_000,
      outputMicrosPerM: 20_000_000,
      cachedMicrosPerM: 5_000_000,
      updatedBy: people.owner,
    });
    const after = await turn(people.owner, server, "hello again");
    expect((await modelRows(before)).map((r) => r.costMicros)).toEqual([18]);
    expect((await modelRows(after)).map((r) => r.costMicros)).toEqual([180]);
  }, 60_000);

  it("sampling records its own model request, without a chat", async () => {
    const server = await everything("sampler");
    const outcome = await pool
      .session(people.member, server)
      .callTool("trigger-sampling-request", { prompt: "six times seven?", maxTokens: 50 });
    expect(outcome.isError).toBe(false);
    await flushUsage(getDb());
    const rows = await all(getDb().select().from(usageModelRequests).where(eq(usageModelRequests.source, "sampling")));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      userId: people.member,
      workspaceId: teamId,
      chatId: null,
      inputTokens: 10,
      outputTokens: 5,
      outcome: "ok",
    });
    const call = await all(getDb().select().from(usageMcpRequests).where(eq(usageMcpRequests.serverId, server.id)));
    expect(call.map((c) => [c.name, c.outcome])).toEqual([["trigger-sampling-request", "ok"]]);
  }, 60_000);

  it("resource reads and failed tool calls are recorded with their kind and outcome", async () => {
    const server = await everything("kinds");
    const session = pool.session(people.owner, server);
    await session.readResource("demo://resource/static/document/architecture.md").catch(() => undefined);
    const failed = await session.callTool("no-such-tool", {});
    expect(failed.isError).toBe(true);
    await flushUsage(getDb());
    const rows = await all(getDb().select().from(usageMcpRequests).where(eq(usageMcpRequests.serverId, server.id)));
    expect(rows.find((r) => r.kind === "resource")?.name).toBe("demo://resource/static/document/architecture.md");
    expect(rows.find((r) => r.kind === "tool")).toMatchObject({ name: "no-such-tool", outcome: "protocol_error" });
  }, 60_000);

  it("the aggregates by day, member, model, server and tool match the rows", async () => {
    const db = getDb();
    const day = new Date().toISOString().slice(0, 10);
    const scope: UsageScope = { from: day, to: day, workspaceId: teamId };
    const models = await all(db.select().from(usageModelRequests).where(eq(usageModelRequests.workspaceId, teamId)));
    const calls = await all(db.select().from(usageMcpRequests).where(eq(usageMcpRequests.workspaceId, teamId)));
    const sum = <T>(rows: T[], f: (r: T) => number) => rows.reduce((a, r) => a + f(r), 0);

    const [today] = await usageByDay(db, scope);
    expect(today).toMatchObject({
      day,
      inputTokens: sum(models, (r) => r.inputTokens),
      outputTokens: sum(models, (r) => r.outputTokens),
      costMicros: sum(models, (r) => r.costMicros),
      modelCalls: models.length,
      mcpCalls: calls.length,
      mcpErrors: calls.filter((c) => c.outcome !== "ok").length,
    });
    const byMember = await usageByMember(db, scope);
    for (const userId of [people.owner, people.member]) {
      const mine = models.filter((r) => r.userId === userId);
      expect(byMember.find((m) => m.userId === userId)).toMatchObject({
        inputTokens: sum(mine, (r) => r.inputTokens),
        costMicros: sum(mine, (r) => r.costMicros),
        mcpCalls: calls.filter((c) => c.userId === userId).length,
      });
    }
    expect(await usageByModel(db, scope)).toEqual([
      expect.objectContaining({
        provider: "openai-compatible",
        model: "scripted",
        calls: models.length,
        outputTokens: sum(models, (r) => r.outputTokens),
      }),
    ]);
    const byServer = await usageByServer(db, scope);
    for (const serverId of new Set(calls.map((c) => c.serverId))) {
      const mine = calls.filter((c) => c.serverId === serverId);
      expect(byServer.find((s) => s.serverId === serverId)).toMatchObject({
        calls: mine.length,
        errors: mine.filter((c) => c.outcome !== "ok").length,
        durationMs: sum(mine, (c) => c.durationMs),
      });
    }
    const echo = (await usageByTool(db, scope)).find((t) => t.name === "tool:echo");
    expect(echo?.calls).toBe(calls.filter((c) => c.name === "echo").length);
    // The person's own scope sees only their rows.
    const own = await usageByDay(db, { ...scope, userId: people.owner });
    expect(own[0].modelCalls).toBe(models.filter((r) => r.userId === people.owner).length);
  });

  it("retention removes rows older than SWITCHBOARD_USAGE_RETENTION_DAYS and keeps their daily sums", async () => {
    const db = getDb();
    const old = new Date(Date.now() - 40 * 86_400_000);
    const oldDay = old.toISOString().slice(0, 10);
    const event = {
      userId: people.owner,
      workspaceId: teamId,
      serverId: "gone",
      serverName: "gone",
      kind: "tool" as const,
      name: "old",
      durationMs: 7,
      outcome: "ok" as const,
      bytesIn: 1,
      bytesOut: 2,
    };
    await recordMcpRequest(db, event, old);
    await recordMcpRequest(db, event, old);
    await flushUsage(db);
    expect(await all(db.select().from(usageMcpRequests).where(eq(usageMcpRequests.serverId, "gone")))).toHaveLength(2);

    const pruned = await applyUsageRetention(db, new Date(), { SWITCHBOARD_USAGE_RETENTION_DAYS: "30" });
    expect(pruned.mcp).toBe(2);
    expect(await all(db.select().from(usageMcpRequests).where(eq(usageMcpRequests.serverId, "gone")))).toHaveLength(0);
    // Today's rows are within the retention and stay.
    expect((await all(db.select().from(usageModelRequests))).length).toBeGreaterThan(0);
    const [sums] = await usageByServer(db, { from: oldDay, to: oldDay, workspaceId: teamId });
    expect(sums).toMatchObject({ serverId: "gone", calls: 2, durationMs: 14 });
    expect(await all(db.select().from(usageDaily).where(eq(usageDaily.day, oldDay)))).toHaveLength(1);
  });

  it("prunes once per round across processes: a second process's round within three hours skips, a later one runs", async () => {
    const db = getDb();
    const now = new Date();
    const env = { SWITCHBOARD_USAGE_RETENTION_DAYS: "30" };
    expect(await pruneUnderLease(db, "replica-a", now, env)).toEqual({ model: expect.any(Number), mcp: expect.any(Number) });
    expect(await pruneUnderLease(db, "replica-b", new Date(now.getTime() + 60_000), env)).toBeNull();
    expect(await pruneUnderLease(db, "replica-b", new Date(now.getTime() + 3 * 3_600_000 + 1), env)).not.toBeNull();
  });
});
