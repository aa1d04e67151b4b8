/**
 * Sampling with tools (docs/protocol.md#sampling-with-tools): a 2025-11-25 fixture server offers its
 * own tool in `sampling/createMessage`; the web app's sampling host asks the scripted LLM over HTTP
 * with that tool described, sends the model's call back as `tool_use` (the server runs it), and the
 * engine refuses a tool round beyond `max_tool_rounds` and counts tool uses in the audit.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { upsertMembership } from "@/db/queries/memberships";
import { createServer, toServerDefinition } from "@/db/queries/servers";
import { createUserWithWorkspace } from "@/db/queries/users";
import { createTeamWorkspace } from "@/db/queries/workspaces";
import { SamplingHost } from "@/lib/runtime/sampling";
import { McpPool } from "@/lib/mcp";
import { parseServerConfig } from "@/lib/mcp/config";
import { startScriptedLlm, type ScriptedLlm } from "../agent/helpers";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { FIXTURES, waitUntil } from "./helpers";

type LlmBody = { tools?: { function?: { name?: string } }[]; tool_choice?: unknown; messages: { role: string }[] };

let llm: ScriptedLlm;
let dir = "";
const host = new SamplingHost();
const pool = new McpPool({ onSampling: host.provider });

// Members of a team whose servers an instance administrator added (so `review: false` holds).
const user = { u1: "", u2: "", u3: "" };
let teamId = "";
let adminId = "";

beforeAll(async () => {
  dir = useTempDataDir();
  const db = getDb();
  const person = async (name: string) => (await createUserWithWorkspace(db, { email: `${name}@example.com`, name, passwordHash: "x" }))!.id;
  adminId = await person("admin"); // the first account is the instance administrator
  teamId = (await createTeamWorkspace(db, { name: "Team", slug: "team", ownerId: adminId })).id;
  for (const key of Object.keys(user) as (keyof typeof user)[]) {
    user[key] = await person(key);
    await upsertMembership(db, { workspaceId: teamId, userId: user[key], role: "member" });
  }
  llm = await startScriptedLlm();
  process.env.SWITCHBOARD_LLM_PROVIDER = "openai-compatible";
  process.env.SWITCHBOARD_LLM_MODEL = "scripted";
  process.env.SWITCHBOARD_LLM_BASE_URL = llm.baseUrl;
  // The SSRF guard lets the provider reach the scripted model on loopback (read once per process).
  process.env.SWITCHBOARD_ALLOWED_HOSTS = "127.0.0.1";
});
afterAll(async () => {
  await pool.closeAll();
  await llm?.close();
  removeTempDataDir(dir);
});

async function llmRequests(): Promise<LlmBody[]> {
  const res = await fetch(`${llm.baseUrl.replace(/\/v1$/, "")}/requests`);
  return ((await res.json()) as { body: LlmBody }[]).map((r) => r.body);
}

async function resetLlm() {
  await fetch(`${llm.baseUrl.replace(/\/v1$/, "")}/reset`, { method: "POST" });
}

/** The fixture stored in the team (the sampling host reads its workspace and creator). */
async function stored(name: string, config: Record<string, unknown>) {
  const parsed = parseServerConfig({ command: process.execPath, args: [`${FIXTURES}/sampling-tools-server.mjs`], ...config }, name);
  return await toServerDefinition(getDb(), await createServer(getDb(), { workspaceId: teamId, name, config: parsed, createdBy: adminId }));
}

async function server(id: string, sampling: Record<string, unknown>) {
  return await stored(id, { sampling });
}

describe("sampling with tools", () => {
  it("describes the server's tools to the model and sends its call back as tool_use for the server to run", async () => {
    await resetLlm();
    const def = await server("weather", { review: false });
    const outcome = await pool.session(user.u1, def).callTool("forecast", { city: "Paris" });
    expect(outcome.isError).toBe(false);
    const text = JSON.stringify(outcome.content);
    expect(text).toMatch(/round 1: get_weather\(\{\\"city\\":\\"Paris\\"\}\) id=call_\w+ stop=toolUse/);
    expect(text).toContain("final: Tool results: sunny in Paris");
    const [first, second] = await llmRequests();
    expect(first.tools?.map((t) => t.function?.name)).toEqual(["get_weather"]);
    expect(first.tool_choice).toBe("auto");
    // The second round carries the model's call and the server's result, as an assistant/tool pair
    // (after the host's own system prompt).
    expect(second.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(pool.session(user.u1, def).status().sampling).toMatchObject({ requests: 2, errors: 0, rejected: 0, toolUses: 1 });
  }, 30_000);

  it("refuses the tool round after max_tool_rounds without asking the model", async () => {
    await resetLlm();
    const def = await server("looping", { review: false, max_tool_rounds: 2 });
    const outcome = await pool.session(user.u1, def).callTool("forecast", { city: "Oslo", loop: true });
    expect(outcome.isError).toBe(true);
    const text = JSON.stringify(outcome.content);
    expect(text).toContain("round 2: get_weather");
    expect(text).toMatch(/round 3 refused: .*sampling tool rounds exhausted: 2 already run \(max_tool_rounds: 2\)/);
    expect(await llmRequests()).toHaveLength(2);
    expect(pool.session(user.u1, def).status().sampling).toMatchObject({ requests: 3, rejected: 1, toolUses: 2 });
  }, 30_000);

  it("shows the offered tools and the model's tool calls in the user's review", async () => {
    await resetLlm();
    const def = await server("reviewed", {});
    const call = pool.session(user.u2, def).callTool("forecast", { city: "Lima" });
    const next = async (stage: "request" | "answer") => {
      await waitUntil(() => host.reviews.list(user.u2).some((v) => v.stage === stage), 20_000, `${stage} review`);
      return host.reviews.list(user.u2).find((v) => v.stage === stage)!;
    };
    const request = await next("request");
    expect(request.tools).toEqual([{ name: "get_weather", description: "Current weather for a city" }]);
    host.reviews.answer(user.u2, request.id, { action: "approve" });
    const answer = await next("answer");
    expect(answer.toolCalls).toEqual([{ name: "get_weather", input: { city: "Lima" } }]);
    host.reviews.answer(user.u2, answer.id, { action: "approve" });
    // Round 2: the model answers in text once it has the server's result.
    host.reviews.answer(user.u2, (await next("request")).id, { action: "approve" });
    const final = await next("answer");
    expect(final.answer).toBe("Tool results: sunny in Lima");
    host.reviews.answer(user.u2, final.id, { action: "approve" });
    const outcome = await call;
    expect(outcome.isError).toBe(false);
    expect(JSON.stringify(outcome.content)).toContain("final: Tool results: sunny in Lima");
  }, 30_000);
});

describe("sampling with tools on 2026-07-28 (input_required)", () => {
  async function modern(id: string, sampling: Record<string, unknown>) {
    return await stored(id, { args: [`${FIXTURES}/sampling-tools-server.mjs`, "modern"], sampling });
  }

  it("answers each input_required round with the model's tool_use, and the server's loop ends in text", async () => {
    await resetLlm();
    const def = await modern("modern-weather", { review: false });
    const outcome = await pool.session(user.u3, def).callTool("forecast", { city: "Quito" });
    expect(pool.session(user.u3, def).status().protocol?.era).toBe("modern");
    expect(outcome.isError).toBe(false);
    const text = JSON.stringify(outcome.content);
    expect(text).toMatch(/round 1: get_weather\(\{\\"city\\":\\"Quito\\"\}\) id=call_\w+ stop=toolUse/);
    expect(text).toContain("final: Tool results: sunny in Quito");
    expect(pool.session(user.u3, def).status().sampling).toMatchObject({ requests: 2, toolUses: 1 });
  }, 30_000);

  it("refuses the round after max_tool_rounds, failing the call", async () => {
    await resetLlm();
    const def = await modern("modern-looping", { review: false, max_tool_rounds: 1 });
    const outcome = await pool.session(user.u3, def).callTool("forecast", { city: "Lagos", loop: true });
    expect(outcome.isError).toBe(true);
    expect(JSON.stringify(outcome.forModel)).toMatch(/sampling tool rounds exhausted: 1 already run \(max_tool_rounds: 1\)/);
    expect(await llmRequests()).toHaveLength(1);
    expect(pool.session(user.u3, def).status().sampling).toMatchObject({ requests: 2, rejected: 1, toolUses: 1 });
  }, 30_000);
});
