/**
 * Trace context to stdio servers and spans of sampling (docs/telemetry.md): with an OTLP endpoint
 * set, a tool call to server-everything over stdio (behind the wire tap, which logs every line it is
 * sent) carries its span's `traceparent` in `params._meta`; the sampling request that tool makes
 * back is a `sampling/createMessage` span parenting the `chat <model>` span of its model call, with
 * the GenAI attributes and the scripted model's token counts. A server naming its trace in the
 * sampling request's `_meta` gets the span in that trace. With telemetry off, nothing is added.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { updateServerTrust } from "@/db/queries/server-trust";
import { createServer, toServerDefinition } from "@/db/queries/servers";
import { createUserWithWorkspace } from "@/db/queries/users";
import { getPersonalWorkspaceId, getWorkspaceById } from "@/db/queries/workspaces";
import type { WorkspaceActor } from "@/lib/domain/workspace";
import { McpPool } from "@/lib/mcp";
import { parseServerConfig } from "@/lib/mcp/config";
import { setWorkspaceModel } from "@/lib/models/workspace-default";
import { SamplingHost } from "@/lib/runtime/sampling";
import { tracedToolCall } from "@/lib/telemetry/mcp-call";
import { tracedSampling } from "@/lib/telemetry/sampling";
import { flushTelemetry, shutdownTelemetry, startTelemetry } from "@/lib/telemetry/sdk";
import { traceMeta } from "@/lib/telemetry/trace-meta";
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "../../helpers/otlp-receiver";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { startScriptedLlm, type ScriptedLlm } from "../agent/helpers";
import { EVERYTHING, FIXTURES } from "../mcp/helpers";

const SAVED = ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_BSP_SCHEDULE_DELAY", "OTEL_METRIC_EXPORT_INTERVAL"];
const saved = Object.fromEntries(SAVED.map((k) => [k, process.env[k]]));
const host = new SamplingHost();
// Wired as lib/runtime/engine.ts wires the app's pool.
const pool = new McpPool({ onSampling: host.provider, requestMeta: traceMeta });
const log = path.join(mkdtempSync(path.join(tmpdir(), "sb-trace-meta-")), "wire.log");
let receiver: OtlpReceiver;
let llm: ScriptedLlm;
let dir = "";
let userId = "";
let server: Awaited<ReturnType<typeof toServerDefinition>>;

beforeAll(async () => {
  dir = useTempDataDir();
  for (const key of ["SWITCHBOARD_LLM_PROVIDER", "SWITCHBOARD_LLM_MODEL", "SWITCHBOARD_LLM_BASE_URL"]) delete process.env[key];
  process.env.SWITCHBOARD_ALLOWED_HOSTS = "127.0.0.1";
  llm = await startScriptedLlm();
  receiver = await startOtlpReceiver();
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.url;
  process.env.OTEL_EXPORTER_OTLP_PROTOCOL = "http/json";
  process.env.OTEL_BSP_SCHEDULE_DELAY = "50";
  process.env.OTEL_METRIC_EXPORT_INTERVAL = "600000";
  expect(await startTelemetry()).toBe(true);

  const db = getDb();
  const user = (await createUserWithWorkspace(db, { email: "tracer@example.com", name: "Tracer", passwordHash: "x" }))!;
  userId = user.id;
  const workspaceId = (await getPersonalWorkspaceId(db, user.id))!;
  const actor = { id: user.id, workspaceId, role: "owner", workspace: (await getWorkspaceById(db, workspaceId))! } as WorkspaceActor;
  await setWorkspaceModel(db, actor, {
    provider: "openai-compatible",
    model: "scripted",
    baseUrl: llm.baseUrl,
    apiKey: null,
    clearApiKey: false,
  });
  const config = parseServerConfig(
    {
      command: process.execPath,
      args: [path.join(FIXTURES, "wire-tap.mjs"), log, process.execPath, EVERYTHING, "stdio"],
      sampling: { review: false },
    },
    "everything",
  );
  server = await toServerDefinition(db, await createServer(db, { workspaceId, name: "everything", config, createdBy: user.id }));
  await updateServerTrust(db, server.id, { trusted: true }, user.id);
});

afterAll(async () => {
  await pool.closeAll();
  await shutdownTelemetry();
  await receiver?.close();
  await llm?.close();
  removeTempDataDir(dir);
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

/** The spans received so far, waiting for `count` of those named `name`. */
async function spansNamed(name: string, count = 1): Promise<ReceivedSpan[]> {
  for (let i = 0; i < 100; i++) {
    await flushTelemetry();
    const found = receiver.spans.filter((s) => s.name === name);
    if (found.length >= count) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no span named ${name}; got ${receiver.spans.map((s) => s.name).join(", ")}`);
}

/** The `tools/call` requests the server was sent, as parsed JSON-RPC. */
function toolCallsSent(): { params: { name: string; _meta?: Record<string, unknown> } }[] {
  return readFileSync(log, "utf8")
    .split("\n")
    .filter((line) => line.startsWith("> "))
    .map((line) => JSON.parse(line.slice(2)))
    .filter((message) => message.method === "tools/call");
}

const sample = () =>
  tracedToolCall({ toolName: "trigger-sampling-request", transport: "stdio" }, () =>
    pool.session(userId, server).callTool("trigger-sampling-request", { prompt: "six times seven?", maxTokens: 50 }),
  );

describe("trace context over stdio and sampling spans", () => {
  it("a stdio tool call carries its span's traceparent in _meta; its sampling request is a span over the model call", async () => {
    const outcome = await sample();
    expect(outcome.isError).toBe(false);

    const [tool] = await spansNamed("tools/call trigger-sampling-request");
    expect(tool.attributes).toMatchObject({ "mcp.method.name": "tools/call", "network.transport": "pipe" });
    const [call] = toolCallsSent();
    expect(call.params.name).toBe("trigger-sampling-request");
    expect(call.params._meta?.traceparent).toBe(`00-${tool.traceId}-${tool.spanId}-01`);

    const [sampling] = await spansNamed("sampling/createMessage");
    expect(sampling.kind).toBe(2); // SERVER: the client serves the server's request
    expect(sampling.attributes).toMatchObject({ "mcp.method.name": "sampling/createMessage" });
    const [model] = await spansNamed("chat scripted");
    expect(model.parentSpanId).toBe(sampling.spanId);
    expect(model.traceId).toBe(sampling.traceId);
    expect(model.kind).toBe(3);
    expect(model.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "openai-compatible",
      "gen_ai.request.model": "scripted",
      "gen_ai.usage.input_tokens": 10,
      "gen_ai.usage.output_tokens": 5,
    });
    // Nothing of the prompt or the answer is on the spans.
    expect(JSON.stringify([tool, sampling, model])).not.toContain("six times seven");
  }, 60_000);

  it("a sampling request naming its trace in _meta is a span of that trace", async () => {
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const parentId = "00f067aa0ba902b7";
    await tracedSampling({ traceparent: `00-${traceId}-${parentId}-01` }, async () => "answered");
    const spans = await spansNamed("sampling/createMessage", 2);
    const joined = spans.find((s) => s.traceId === traceId);
    expect(joined?.parentSpanId).toBe(parentId);
  });

  it("with telemetry off, requests go out without trace context", async () => {
    await shutdownTelemetry();
    expect(traceMeta()).toBeUndefined();
    const before = toolCallsSent().length;
    expect((await sample()).isError).toBe(false);
    const after = toolCallsSent().slice(before);
    expect(after).toHaveLength(1);
    expect(after[0].params._meta?.traceparent).toBeUndefined();
  }, 60_000);
});
