/**
 * Sampling (docs/architecture.md#sampling-and-elicitation) and roots against server-everything over stdio: the engine applies the
 * server's policy in front of the host's LLM (a scripted provider — our own interface).
 */
import { afterEach, describe, expect, it } from "vitest";
import { McpPool, type SamplingProvider, type SamplingRequest } from "@/lib/mcp";
import { def, EVERYTHING } from "./helpers";

const pools: McpPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.closeAll()));
});

function everything(config: Record<string, unknown> = {}) {
  return def("everything", { command: process.execPath, args: [EVERYTHING, "stdio"], ...config });
}

function scriptedProvider(seen: SamplingRequest[], answer = "forty-two"): SamplingProvider {
  return async (_user, _server, request) => {
    seen.push(request);
    return {
      result: { role: "assistant", model: request.model ?? "scripted", content: { type: "text", text: answer }, stopReason: "endTurn" },
      usage: { inputTokens: 12, outputTokens: 3 },
    };
  };
}

function poolWith(onSampling?: SamplingProvider) {
  const pool = new McpPool({ onSampling });
  pools.push(pool);
  return pool;
}

describe("sampling", () => {
  it("answers a server's createMessage through the host, capping max tokens and counting the audit", async () => {
    const seen: SamplingRequest[] = [];
    const pool = poolWith(scriptedProvider(seen));
    const server = everything({ sampling: { max_tokens_cap: 50, model: "small-model" } });
    const outcome = await pool
      .session("u1", server)
      .callTool("trigger-sampling-request", { prompt: "What is six times seven?", maxTokens: 1000 });
    expect(outcome.isError).toBe(false);
    expect(JSON.stringify(outcome.content)).toContain("forty-two");
    expect(seen).toHaveLength(1);
    expect(seen[0].maxTokens).toBe(50);
    expect(seen[0].model).toBe("small-model");
    expect(JSON.stringify(seen[0].params.messages)).toContain("six times seven");
    expect(pool.session("u1", server).status().sampling).toMatchObject({
      requests: 1,
      errors: 0,
      rejected: 0,
      inputTokens: 12,
      outputTokens: 3,
    });
  });

  it("does not offer sampling to a server whose policy disables it", async () => {
    const seen: SamplingRequest[] = [];
    const pool = poolWith(scriptedProvider(seen));
    const server = everything({ sampling: { enabled: false } });
    const tools = await pool.session("u1", server).listTools();
    // server-everything registers its sampling tool only for clients that declare the capability.
    expect(tools.map((t) => t.rawName)).not.toContain("trigger-sampling-request");
    expect(tools.map((t) => t.rawName)).toContain("echo");
    expect(seen).toHaveLength(0);
  });

  it("does not declare sampling at all when the host has no LLM for it", async () => {
    const tools = await poolWith(undefined).session("u1", everything()).listTools();
    expect(tools.map((t) => t.rawName)).not.toContain("trigger-sampling-request");
  });

  it("refuses requests over max_rpm without asking the LLM", async () => {
    const seen: SamplingRequest[] = [];
    const pool = poolWith(scriptedProvider(seen));
    const server = everything({ sampling: { max_rpm: 1 } });
    const first = await pool.session("u1", server).callTool("trigger-sampling-request", { prompt: "one" });
    const second = await pool.session("u1", server).callTool("trigger-sampling-request", { prompt: "two" });
    expect(first.isError).toBe(false);
    expect(second.isError).toBe(true);
    expect(JSON.stringify(second.forModel)).toMatch(/rate limit/);
    expect(seen).toHaveLength(1);
    expect(pool.session("u1", server).status().sampling).toMatchObject({ requests: 2, rejected: 1 });
  });

  it("times out a slow LLM per the policy and aborts the host's request", async () => {
    let aborted = false;
    const pool = poolWith(async (_u, _s, _r, signal) => {
      signal.addEventListener("abort", () => (aborted = true));
      return new Promise(() => {}); // never answers
    });
    const server = everything({ sampling: { timeout: 0.5 } });
    const outcome = await pool.session("u1", server).callTool("trigger-sampling-request", { prompt: "slow" });
    expect(outcome.isError).toBe(true);
    expect(JSON.stringify(outcome.forModel)).toMatch(/timed out after 0.5 s/);
    expect(aborted).toBe(true);
    expect(pool.session("u1", server).status().sampling).toMatchObject({ requests: 1, errors: 1 });
  });
});

describe("roots", () => {
  it("offers a stdio server its shared read-only paths as roots", async () => {
    const pool = poolWith();
    const server = everything({ read_only_paths: ["/usr/share"] });
    const outcome = await pool.session("u1", server).callTool("get-roots-list", {});
    expect(outcome.isError).toBe(false);
    expect(JSON.stringify(outcome.content)).toContain("file:///usr/share");
  });
});
