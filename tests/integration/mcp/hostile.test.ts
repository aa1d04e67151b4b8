/**
 * Hostile servers (tests/fixtures/mcp/hostile-*.mjs) over Streamable HTTP (JSON and SSE replies)
 * and stdio: each misbehaviour fails its call or discovery with an error naming the cap and its
 * variable, the process grows by less than 64 MB, a health endpoint served by this same process
 * keeps answering, and a second user's calls to a well-behaved server keep working meanwhile.
 */
import type { ChildProcess } from "node:child_process";
import http from "node:http";
import path from "node:path";
import v8 from "node:v8";
import vm from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpPool, type ServerDefinition } from "@/lib/mcp";
import { def, FIXTURES, fixture, freePort, startHttpServer, stopProcess, waitUntil } from "./helpers";

const MB = 1024 * 1024;
// A full collection on demand (the flag alone does not define `gc` once the process runs).
v8.setFlagsFromString("--expose-gc");
const collectGarbage = vm.runInNewContext("gc") as () => void;
const pool = new McpPool({ killGraceMs: 1000, turnWaitMs: 1500 });
let server: ChildProcess | undefined;
let base = "";
let health: http.Server;
let healthUrl = "";

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = await startHttpServer([path.join(FIXTURES, "hostile-http.mjs")], { PORT: String(port) }, `${base}/stats`);
  // Stands in for /api/health: served by the same event loop the engine runs on.
  health = http.createServer((_req, res) => res.end("ok"));
  await new Promise<void>((resolve) => health.listen(0, "127.0.0.1", resolve));
  healthUrl = `http://127.0.0.1:${(health.address() as { port: number }).port}/`;
});

afterAll(async () => {
  await pool.closeAll();
  await stopProcess(server);
  health?.close();
});

const httpServer = (mode: string, query = "", extra: Record<string, unknown> = {}) =>
  def(`h_${mode.replace("-", "_")}`, { url: `${base}/mcp/${mode}${query}`, ...extra }, `h-${mode}${query}`);
const stdioServer = (mode: string, extra: Record<string, unknown> = {}) =>
  fixture(`s_${mode.replace("-", "_")}`, "hostile-stdio.mjs", { env: { HOSTILE_MODE: mode }, ...extra }, `s-${mode}`);
const stats = async () =>
  (await (await fetch(`${base}/stats`)).json()) as { gets: Record<string, number>; initializes: Record<string, number> };

/** Run `hostile` as user "a" while user "b" calls a good server and the health endpoint is polled. */
async function underHostility<T>(hostile: () => Promise<T>) {
  const good = httpServer("good");
  // What the process holds, not garbage: collected before the baseline (so earlier tests' heap
  // does not count) and at most every 250 ms while sampling. A flood of small messages otherwise
  // lets V8 pile up ~80 MB of garbage before its own collection (measured: heap 103 MB, 25 MB
  // after a collection), while anything the engine really kept (a buffered 60 MB list) survives
  // a collection and counts.
  // The neighbour's connection is opened first: loading and compiling the client code paths is
  // not growth caused by the hostile server.
  await pool.session("b", good).callTool("echo", { message: "warm-up" });
  collectGarbage();
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  let collected = performance.now();
  const sample = () => {
    if (performance.now() - collected > 250) {
      collectGarbage();
      collected = performance.now();
    }
    peak = Math.max(peak, process.memoryUsage().rss);
  };
  const sampler = setInterval(sample, 10);
  let done = false;
  const neighbour = { ok: 0, failed: [] as string[] };
  const healthChecks = { ok: 0, failed: 0 };
  const neighbourLoop = (async () => {
    while (!done) {
      const out = await pool.session("b", good).callTool("echo", { message: "hi" });
      sample(); // the interval alone can starve while a flood keeps the loop busy
      if (out.isError) neighbour.failed.push(JSON.stringify(out.forModel));
      else neighbour.ok++;
    }
  })();
  const healthLoop = (async () => {
    while (!done) {
      if (await healthAnswers()) healthChecks.ok++;
      else healthChecks.failed++;
    }
  })();
  try {
    const result = await hostile();
    // Let the neighbour finish at least one call while the hostile server is still connected.
    await waitUntil(() => neighbour.ok > 0 && healthChecks.ok > 0, 20_000, "the neighbour's calls");
    return { result, neighbour, healthChecks, rssGrowth: peak - rssBefore };
  } finally {
    done = true;
    clearInterval(sampler);
    await Promise.all([neighbourLoop, healthLoop]);
  }
}

/** One GET on a fresh socket (no keep-alive reuse races), true on "ok". */
function healthAnswers(): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get(healthUrl, { agent: false }, (res) => {
      let body = "";
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve(body === "ok"));
    });
    req.on("error", () => resolve(false));
  });
}

function expectContained(run: { neighbour: { failed: string[] }; healthChecks: { failed: number }; rssGrowth: number }) {
  expect(run.neighbour.failed).toEqual([]);
  expect(run.healthChecks.failed).toBe(0);
  expect(run.rssGrowth).toBeLessThan(64 * MB);
}

async function failedDiscovery(definition: ServerDefinition) {
  const [status] = await pool.discover("a", [definition]);
  expect(status.state).toBe("failed");
  return status.lastError;
}

async function failedCall(definition: ServerDefinition, tool = "big") {
  const out = await pool.session("a", definition).callTool(tool, {});
  expect(out.isError).toBe(true);
  return { code: out.errorCode, message: (out.forModel as { error: string }).error };
}

describe.each(["http", "stdio"] as const)("a hostile server over %s", (wire) => {
  const hostile = (mode: string, query = "") => (wire === "http" ? httpServer(mode, query) : stdioServer(mode));
  const sizeCode = wire === "http" ? "limit_exceeded" : "message_too_large";

  it("a 60 MB tool list fails discovery at the message cap", async () => {
    const run = await underHostility(() => failedDiscovery(hostile("big-list")));
    expect(run.result?.code).toBe(sizeCode);
    expect(run.result?.message).toMatch(/16777216 bytes.*SWITCHBOARD_MCP_MAX_MESSAGE_BYTES/);
    expectContained(run);
  });

  it("a 1 GB result streamed slowly fails the call at the cap, and the connection stays usable", async () => {
    const definition = hostile("big-result", "?sse=1");
    const run = await underHostility(() => failedCall(definition));
    expect(run.result).toMatchObject({ code: sizeCode, message: expect.stringMatching(/SWITCHBOARD_MCP_MAX_MESSAGE_BYTES/) });
    expectContained(run);
    // Over HTTP each call has its own response; over stdio the server's own pipe stays busy with its 1 GB.
    if (wire === "http")
      expect((await pool.session("a", definition).callTool("echo", { message: "still" })).forModel).toEqual({ result: "echo: still" });
  });

  it("an endless line fails the call at the cap", async () => {
    const run = await underHostility(() => failedCall(hostile("endless-line")));
    expect(run.result).toMatchObject({ code: sizeCode, message: expect.stringMatching(/SWITCHBOARD_MCP_MAX_MESSAGE_BYTES/) });
    expectContained(run);
  });

  it("a million-key result is refused before anything parses it", async () => {
    const run = await underHostility(() => failedCall(hostile("million-keys")));
    expect(run.result).toMatchObject({ code: "limit_exceeded", message: expect.stringMatching(/SWITCHBOARD_MCP_MAX_JSON_MEMBERS/) });
    expectContained(run);
  });

  it("a notification flood is dropped past the rate and calls still answer", async () => {
    const definition = hostile("flood");
    const run = await underHostility(async () => {
      const out = await pool.session("a", definition).callTool("big", {});
      await waitUntil(
        () => (pool.session("a", definition).status().limits?.droppedNotifications ?? 0) > 0,
        20_000,
        "dropped notifications",
      );
      return out;
    });
    expect(run.result.forModel).toEqual({ result: "done" });
    expectContained(run);
    await pool.close("a", definition.id);
  });

  it("a cursor loop fails discovery", async () => {
    const run = await underHostility(() => failedDiscovery(hostile("cursor-loop")));
    expect(run.result).toMatchObject({ code: "limit_exceeded", message: expect.stringMatching(/repeated a cursor/) });
    expectContained(run);
  });

  it("5,000 tools fail discovery at the tool cap", async () => {
    const run = await underHostility(() => failedDiscovery(hostile("many-tools")));
    expect(run.result).toMatchObject({
      code: "limit_exceeded",
      message: expect.stringMatching(/more than 1000 items.*SWITCHBOARD_MCP_MAX_TOOLS/),
    });
    expectContained(run);
  });

  it("a deeply nested tool schema fails discovery at the depth cap", async () => {
    const run = await underHostility(() => failedDiscovery(hostile("deep-schema")));
    expect(run.result).toMatchObject({ code: "limit_exceeded", message: expect.stringMatching(/SWITCHBOARD_MCP_MAX_JSON_DEPTH/) });
    expectContained(run);
  });
});

describe("reconnect discipline", () => {
  it("`retry: 0` with an immediate close reopens the stream only within the budget, at least 500 ms apart, doubling", async () => {
    const budgetPool = new McpPool({ limits: { maxStreamOpens: 3 } });
    try {
      const definition = httpServer("retry0");
      const [status] = await budgetPool.discover("a", [definition]);
      expect(status.state).toBe("connected");
      // The reopen past the budget is refused and visible in the status.
      const refused = () =>
        budgetPool.session("a", definition).status().limits?.lastRefusal?.includes("SWITCHBOARD_MCP_MAX_STREAM_OPENS") === true;
      await waitUntil(refused, 30_000, "the budget to run out");
      expect((await stats()).gets.retry0).toBe(3);
      expect(budgetPool.session("a", definition).status().limits?.streamOpens).toEqual({ opens: 3, max: 3, exhausted: true });
      // The connection itself stays usable, and nothing reopens the stream any more.
      expect((await budgetPool.session("a", definition).callTool("echo", { message: "x" })).forModel).toEqual({ result: "echo: x" });
      expect((await stats()).gets.retry0).toBe(3);
    } finally {
      await budgetPool.closeAll();
    }
  });
});

describe("calls that time out", () => {
  it("release their HTTP response (and socket) instead of leaving it open", async () => {
    for (const query of ["", "?sse=1"]) {
      const hanging = httpServer("hang", query, { timeout: 1 });
      const out = await pool.session("t", hanging).callTool("big", {});
      expect(out.errorCode).toBe("call_timeout");
    }
    await waitUntil(
      async () => ((await (await fetch(`${base}/stats`)).json()) as { openCalls: number }).openCalls === 0,
      10_000,
      "the responses to close",
    );
  });
});

describe("reconnect requests", () => {
  it("a reconnect asked for while one is under way shares it instead of starting over", async () => {
    const slow = httpServer("never-init", "?r=1", { connect_timeout: 2 });
    const before = (await stats()).initializes["never-init"] ?? 0;
    const first = pool.session("r", slow).reconnect();
    await waitUntil(async () => ((await stats()).initializes["never-init"] ?? 0) === before + 1, 10_000, "the first initialize");
    const again = await Promise.all([pool.session("r", slow).reconnect(), pool.session("r", slow).reconnect()]);
    await first;
    expect((await stats()).initializes["never-init"]).toBe(before + 1);
    expect(again.map((status) => status.lastError?.code)).toEqual(["connect_timeout", "connect_timeout"]);
  });
});

describe("one bad server among good ones", () => {
  it("the turn gets the good servers' tools; a server that never initializes is not awaited again each turn", async () => {
    const good = httpServer("good");
    const servers = [httpServer("deep-schema"), httpServer("never-init", "", { connect_timeout: 2 }), httpServer("million-keys"), good];
    const initializesBefore = (await stats()).initializes["never-init"] ?? 0;
    const run = await underHostility(async () => {
      const first = await pool.toolset("c", servers);
      await waitUntil(() => pool.session("c", servers[1]).status().state === "failed", 20_000, "never-init to fail");
      const second = await pool.toolset("c", servers);
      const third = await pool.toolset("c", servers);
      return { first, second, third };
    });
    for (const tools of [run.result.first, run.result.second, run.result.third]) {
      const names = tools.map((t) => t.name);
      expect(names).toContain("mcp_h_good_echo");
      expect(names).toContain("mcp_h_million_keys_echo");
      expect(names.some((n) => n.startsWith("mcp_h_deep_schema"))).toBe(false);
      expect(names.some((n) => n.startsWith("mcp_h_never_init"))).toBe(false);
    }
    expect((await stats()).initializes["never-init"]).toBe(initializesBefore + 1);
    expect(pool.session("c", servers[1]).status().lastError?.code).toBe("connect_timeout");
    expect(pool.session("c", servers[0]).status().lastError?.code).toBe("limit_exceeded");
    expectContained(run);
  });
});
