/**
 * Bounded waits where a person waits (docs/limits.md): a server that never finishes initializing
 * costs its owner's chat turn at most `SWITCHBOARD_MCP_TURN_WAIT_SECONDS` in total (not once per
 * re-list of the turn), nothing on the next turn, and the tool-policies listing behind
 * `GET /api/settings/tool-policies` answers within the same bound, naming the server as still
 * connecting. A short bound (2 s) stands in for the default 10 s.
 */
import path from "node:path";
import { expect, it } from "vitest";
import { getDb } from "@/db/client";
import { listToolPolicyRows } from "@/lib/trust/tool-policy-service";
import { McpPool } from "@/lib/mcp";
import { FIXTURES } from "../mcp/helpers";
import { newUserWithChat, runTurn, say, useAgentEnvironment } from "./helpers";

const BOUND_MS = 2000;
// Scheduling on a busy shared machine (measured: load 20+ on 2 cores).
const SLACK_MS = 1000;
const env = useAgentEnvironment();
env.pool = new McpPool({ turnWaitMs: BOUND_MS, killGraceMs: 1000 });

const servers = {
  // Reads stdin, never answers initialize: connecting for the whole minute of its connect_timeout.
  stuck: { command: process.execPath, args: [path.join(FIXTURES, "hostile-stdio.mjs")], env: { HOSTILE_MODE: "never-init" } },
  good: { command: process.execPath, args: [path.join(FIXTURES, "fault-server.mjs")] },
};

/** A user with both servers, the good one connected already (its own start is not what is measured). */
async function userWithStuckServer() {
  const made = await newUserWithChat(servers);
  const [good] = await env.pool.discover(made.user.id, [made.servers[1]]);
  expect(good.state).toBe("connected");
  return made;
}

/** Time spent waiting in the pool's tool listing (every re-list of a turn goes through it). */
function measureToolsetWaits() {
  const listing = env.pool.toolset.bind(env.pool);
  const waits: number[] = [];
  env.pool.toolset = async (...args) => {
    const started = performance.now();
    try {
      return await listing(...args);
    } finally {
      waits.push(performance.now() - started);
    }
  };
  return { total: () => waits.reduce((a, b) => a + b, 0), count: () => waits.length, restore: () => (env.pool.toolset = listing) };
}

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const started = performance.now();
  const result = await run();
  return { ms: performance.now() - started, result };
}

it("a chat turn waits for a never-initializing server at most the bound in total, the next turn not at all", async () => {
  const { user, chat, servers: defs } = await userWithStuckServer();
  const turn = () => runTurn({ ...env, userId: user.id, chatId: chat.id, servers: defs, request: say("hello") });
  const waits = measureToolsetWaits();
  try {
    const first = await turn();
    // The turn lists its tools more than once (before the model, before each step): one wait in all.
    expect(waits.count()).toBeGreaterThan(1);
    expect(waits.total()).toBeGreaterThanOrEqual(BOUND_MS - 50);
    expect(waits.total()).toBeLessThan(BOUND_MS + SLACK_MS);
    const notices = first.filter((c) => c.type === "data-notice") as { data: { serverName: string; text: string } }[];
    expect(notices.map((n) => n.data.text)).toEqual(["stuck is left out of this answer: still connecting"]);
    expect(env.pool.session(user.id, defs[0]).status().state).toBe("connecting");
    // The same connect attempt is still under way: the next turn does not wait for it again.
    const before = waits.total();
    await turn();
    expect(waits.total() - before).toBeLessThan(SLACK_MS / 2);
  } finally {
    waits.restore();
  }
});

it("the tool-policies listing answers within the bound and shows the server as still connecting", async () => {
  const { user, servers: defs } = await userWithStuckServer();
  const actor = { id: user.id, isAdmin: false, workspaceId: user.workspaceId };
  const { ms, result } = await timed(() => listToolPolicyRows(getDb(), env.pool, actor, defs));
  expect(ms).toBeGreaterThanOrEqual(BOUND_MS - 50);
  expect(ms).toBeLessThan(BOUND_MS + SLACK_MS);
  expect(result.errors).toEqual([
    expect.objectContaining({ serverName: "stuck", connecting: true, message: expect.stringMatching(/still connecting/) }),
  ]);
  expect(result.tools.some((t) => t.serverName === "good" && t.toolName === "echo")).toBe(true);
  // Asked again while the attempt goes on: no second wait.
  expect((await timed(() => listToolPolicyRows(getDb(), env.pool, actor, defs))).ms).toBeLessThan(SLACK_MS);
});
