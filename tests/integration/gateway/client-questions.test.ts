/**
 * The upstream's questions during a gateway call go to the gateway's own client when it can answer
 * them (docs/gateway.md#questions-from-the-server), on the run's database with the real route
 * handlers and the app's pool: server-everything (a 2025-era server from npm) elicits and samples in
 * the middle of a call, and the conformance fixture (2026-07-28) returns `input_required`; a
 * 2025-11-25 session that declared elicitation and sampling is asked, its answers reach the server,
 * nothing waits in Switchboard, and the server's sampling policy still caps the request. A client
 * that declared neither leaves the question to Switchboard, as in the chat. A 2026-07-28 client runs
 * a 2026-07-28 server's input_required rounds itself (the gateway passes them and its retries
 * through, with its own capabilities); a 2025-era server's question to it is left to Switchboard.
 */
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import type { CreateMessageRequest, ElicitRequest } from "@modelcontextprotocol/client";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { updateServerTrust } from "@/db/queries/server-trust";
import { createServer } from "@/db/queries/servers";
import { setToolPolicy } from "@/db/queries/tool-policies";
import { createToken } from "@/lib/auth/personal-tokens";
import { parseServerConfig } from "@/lib/mcp/config";
import { elicitationBroker } from "@/lib/runtime/elicitations";
import { EVERYTHING, freePort, ROOT, startHttpServer } from "../mcp/helpers";
import type { Person } from "../workspaces/helpers";
import { acmeWithBob, closeGatewayTest, type ServedGateway, serveGateway } from "./helpers";

// Route modules and the use cases are marked server-only (a bundler marker that throws outside Next's server build).
vi.mock("server-only", () => ({}));

process.env.SWITCHBOARD_ALLOWED_HOSTS = "127.0.0.1,localhost";

let dir = "";
const fixtures: ChildProcess[] = [];
const clients: Client[] = [];
let gateway: ServedGateway | undefined;
let admin: Person;
let acme = "";
let acmeSlug = "";

/** What a client was asked, in order. */
interface Asked {
  elicitations: ElicitRequest["params"][];
  samplings: CreateMessageRequest["params"][];
}

/**
 * An SDK v2 client of `url` as the admin: at 2025-11-25 (a session) unless `modern`; `answers`
 * declares form elicitation and sampling and answers them as a person and their model would.
 */
async function connect(url: string, options: { modern?: boolean; answers?: boolean } = {}): Promise<{ client: Client; asked: Asked }> {
  const { secret } = await createToken(getDb(), admin, { name: "questions test", workspaceId: acme, scopes: ["mcp"], expiresInDays: 7 });
  const asked: Asked = { elicitations: [], samplings: [] };
  const client = new Client(
    { name: "questions-test-client", version: "1.0.0" },
    {
      ...(options.modern ? { versionNegotiation: { mode: { pin: "2026-07-28" as const } } } : {}),
      ...(options.answers ? { capabilities: { elicitation: { form: {} }, sampling: {} } } : {}),
    },
  );
  if (options.answers) {
    client.setRequestHandler("elicitation/create", async (request) => {
      asked.elicitations.push(request.params);
      return { action: "accept", content: { name: "Ada Lovelace" } };
    });
    client.setRequestHandler("sampling/createMessage", async (request) => {
      asked.samplings.push(request.params);
      return { role: "assistant", model: "client-model", content: { type: "text", text: "Paris, said the client's model" } };
    });
  }
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${secret}` } } }),
  );
  clients.push(client);
  return { client, asked };
}

/** A workspace server at `url` whose every tool the admin allows, without the trifecta check (the setup a person would make). */
async function addServer(name: string, url: string, tools: string[], config: Record<string, unknown> = {}): Promise<void> {
  const server = await createServer(getDb(), {
    workspaceId: acme,
    name,
    config: parseServerConfig({ url, ...config }, name),
    createdBy: admin.id,
  });
  for (const tool of tools) await setToolPolicy(getDb(), admin.id, { serverId: server.id, toolName: tool, policy: "allow" });
  await updateServerTrust(getDb(), server.id, { trifectaCheck: false }, admin.id);
}

beforeAll(async () => {
  ({ dir, admin, acme, acmeSlug } = await acmeWithBob());
  const everythingPort = await freePort();
  fixtures.push(
    await startHttpServer([EVERYTHING, "streamableHttp"], { PORT: String(everythingPort) }, `http://127.0.0.1:${everythingPort}/mcp`),
  );
  // A sampling cap below what the tool asks for: the team's policy must still apply to the client's model.
  await addServer("everything", `http://127.0.0.1:${everythingPort}/mcp`, ["trigger-elicitation-request", "trigger-sampling-request"], {
    sampling: { max_tokens_cap: 50 },
  });
  const modernPort = await freePort();
  fixtures.push(
    await startHttpServer(
      [path.join(ROOT, "tests/fixtures/conformance-server/server.mjs")],
      { PORT: String(modernPort) },
      `http://127.0.0.1:${modernPort}/health`,
    ),
  );
  const modernTools = [
    "test_input_required_result_elicitation",
    "test_input_required_result_sampling",
    "test_input_required_result_request_state",
  ];
  // The team's sampling policy on a 2026-07-28 server: a cap (the fixture asks for 100 tokens), or none at all.
  await addServer("modern", `http://127.0.0.1:${modernPort}/mcp`, modernTools, { sampling: { max_tokens_cap: 50 } });
  await addServer("nosampling", `http://127.0.0.1:${modernPort}/mcp`, modernTools, { sampling: { enabled: false } });
  gateway = await serveGateway();
}, 60_000);

afterAll(async () => await closeGatewayTest({ gateway, fixtures, clients, dir }));

/** Every text block of a result (a server's answer may spread over several). */
const allText = (result: { content?: unknown }) =>
  ((result.content ?? []) as { type: string; text?: string }[]).map((block) => block.text ?? "").join("\n");

const perServer = (name: string) => `${gateway!.base}/mcp/${acmeSlug}/${name}`;

describe("a 2025-11-25 client that can answer", () => {
  it("is asked the 2025-era server's elicitation mid-call, and its answer reaches the server", async () => {
    const { client, asked } = await connect(perServer("everything"), { answers: true });
    const result = await client.callTool({ name: "trigger-elicitation-request", arguments: {} });
    expect(asked.elicitations).toHaveLength(1);
    expect(asked.elicitations[0].message).toBe("Please provide inputs for the following fields:");
    expect(allText(result)).toContain("Ada Lovelace");
    // Nothing was left waiting in Switchboard.
    expect(elicitationBroker().list(admin.id)).toEqual([]);
  });

  it("has its model sample for the server, within the server's sampling cap", async () => {
    const { client, asked } = await connect(perServer("everything"), { answers: true });
    const result = await client.callTool({ name: "trigger-sampling-request", arguments: { prompt: "capital of France?", maxTokens: 500 } });
    expect(asked.samplings).toHaveLength(1);
    expect(asked.samplings[0].maxTokens).toBe(50);
    expect(JSON.stringify(asked.samplings[0].messages)).toContain("capital of France?");
    expect(allText(result)).toContain("Paris, said the client's model");
  });

  it("answers a 2026-07-28 server's input_required rounds through the workspace endpoint too", async () => {
    const { client, asked } = await connect(`${gateway!.base}/mcp/${acmeSlug}`, { answers: true });
    const greeting = await client.callTool({ name: "mcp_modern_test_input_required_result_elicitation", arguments: {} });
    expect(asked.elicitations.map((params) => params.message)).toEqual(["Give name"]);
    expect(allText(greeting)).toContain("Hello, Ada Lovelace!");
    const sampled = await client.callTool({ name: "mcp_modern_test_input_required_result_sampling", arguments: {} });
    expect(asked.samplings).toHaveLength(1);
    expect(allText(sampled)).toContain("Paris, said the client's model");
  });
});

describe("a client that cannot answer", () => {
  /** Answer the member's one waiting question in Switchboard, as the app's dialog does, once it is listed. */
  async function answerInSwitchboard(message: string): Promise<void> {
    await vi.waitFor(
      () => {
        const waiting = elicitationBroker().list(admin.id);
        expect(waiting.map((question) => question.message)).toEqual([message]);
        expect(elicitationBroker().answer(admin.id, waiting[0].id, { action: "accept", content: { name: "Grace Hopper" } })).toBe(true);
      },
      { timeout: 10_000, interval: 50 },
    );
  }

  it("without elicitation at 2025-11-25, leaves the question to Switchboard", async () => {
    const { client, asked } = await connect(perServer("modern"));
    const [result] = await Promise.all([
      client.callTool({ name: "test_input_required_result_elicitation", arguments: {} }),
      answerInSwitchboard("Give name"),
    ]);
    expect(asked.elicitations).toEqual([]);
    expect(allText(result)).toContain("Hello, Grace Hopper!");
  });

  it("at 2026-07-28, a 2025-era server's question mid-call (no stream to ask the client on) is left to Switchboard", async () => {
    const { client, asked } = await connect(perServer("everything"), { modern: true, answers: true });
    const [result] = await Promise.all([
      client.callTool({ name: "trigger-elicitation-request", arguments: {} }),
      answerInSwitchboard("Please provide inputs for the following fields:"),
    ]);
    expect(asked.elicitations).toEqual([]);
    expect(allText(result)).toContain("Grace Hopper");
  });
});

describe("a 2026-07-28 client", () => {
  it("runs a 2026-07-28 server's input_required rounds itself, on both endpoints", async () => {
    for (const [url, name] of [
      [perServer("modern"), "test_input_required_result_elicitation"],
      [`${gateway!.base}/mcp/${acmeSlug}`, "mcp_modern_test_input_required_result_elicitation"],
    ]) {
      const { client, asked } = await connect(url, { modern: true, answers: true });
      const result = await client.callTool({ name, arguments: {} });
      // The SDK client fulfilled the round with its own handler and retried: the gateway passed both legs through.
      expect(asked.elicitations.map((params) => params.message)).toEqual(["Give name"]);
      expect(allText(result)).toContain("Hello, Ada Lovelace!");
      expect(elicitationBroker().list(admin.id)).toEqual([]);
    }
  });

  it("gets the server's input_required itself, with its state, and the server's refusal of a tampered state", async () => {
    const { client } = await connect(perServer("modern"), { modern: true, answers: true });
    const call = (params: Record<string, unknown>) =>
      client.request({ method: "tools/call", params: { name: "test_input_required_result_request_state", arguments: {}, ...params } }, {
        allowInputRequired: true,
      } as never) as Promise<Record<string, unknown>>;
    const first = await call({});
    expect(first.resultType).toBe("input_required");
    expect(Object.keys(first.inputRequests as object)).toEqual(["confirm"]);
    const state = first.requestState as string;
    expect(state).toEqual(expect.any(String));
    const inputResponses = { confirm: { action: "accept", content: { ok: true } } };
    // The state the server sealed, echoed: the retry completes.
    expect(allText(await call({ inputResponses, requestState: state }))).toContain("state-ok: requestState verified");
    // A state changed on the way: the server's own refusal, as a JSON-RPC error, not a tool result.
    const tampered = `${state.slice(0, -2)}${state.endsWith("AA") ? "BB" : "AA"}`;
    await expect(call({ inputResponses, requestState: tampered })).rejects.toMatchObject({ code: -32602 });
  });

  it("samples for a 2026-07-28 server under the team's policy: the cap applied, nothing where sampling is off", async () => {
    const { client, asked } = await connect(perServer("modern"), { modern: true, answers: true });
    const sampled = await client.callTool({ name: "test_input_required_result_sampling", arguments: {} });
    expect(asked.samplings.map((params) => params.maxTokens)).toEqual([50]);
    expect(allText(sampled)).toContain("Paris, said the client's model");
    // Sampling switched off for the server: it never hears that the client could sample.
    const off = await connect(perServer("nosampling"), { modern: true, answers: true });
    await expect(off.client.callTool({ name: "test_input_required_result_sampling", arguments: {} })).rejects.toMatchObject({
      code: -32021,
    });
    expect(off.asked.samplings).toEqual([]);
  });

  it("declaring no elicitation, gets the server's -32021 as the error it is", async () => {
    const { client } = await connect(perServer("modern"), { modern: true });
    await expect(client.callTool({ name: "test_input_required_result_elicitation", arguments: {} })).rejects.toMatchObject({
      code: -32021,
    });
    expect(elicitationBroker().list(admin.id)).toEqual([]);
  });
});
