/**
 * A server ended by a sandbox limit says which one (lib/mcp/sandbox/exit-cause.ts): the probe
 * server in a real bubblewrap sandbox, driven through the engine's pool, allocates until the
 * control group's memory limit ends it; the call's error and the server's status name the memory
 * limit and its variable, not just "exited with code 137".
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { McpPool } from "@/lib/mcp";
import { parseServerConfig } from "@/lib/mcp/config";
import { createSandboxWrapper } from "@/lib/mcp/sandbox";
import { fixturesDir, makeFakeData, probePath, projectRoot, requireSandbox, type FakeData } from "./helpers";

let data: FakeData;
let pool: McpPool;

beforeAll(async () => {
  await requireSandbox();
  data = makeFakeData("exit-cause-test");
  // Per-process limits off: what ends the server is the limit on the whole sandbox.
  const limits = { memoryBytes: null, processes: null, groupMemoryBytes: 256 * 1024 * 1024, groupCpus: null, homeBytes: null };
  pool = new McpPool({ killGraceMs: 1000, launchWrapper: createSandboxWrapper({ dataDir: data.dataDir, projectRoot, limits }) });
});
afterAll(async () => {
  await pool?.closeAll();
  data?.cleanup();
});

it("a memory bomb's call and status name the sandbox's memory limit", async () => {
  const server = {
    id: "bomb",
    name: "bomb",
    config: parseServerConfig({ command: process.execPath, args: [probePath], read_only_paths: [fixturesDir] }, "bomb"),
  };
  const [status] = await pool.discover("alice", [server]);
  expect(status.state).toBe("connected");
  const out = await pool.session("alice", server).callTool("hog_memory", {});
  expect(out.errorCode).toBe("connection_closed");
  const named = /memory limit \(268435456 bytes, SWITCHBOARD_SANDBOX_MEMORY_BYTES\) was reached/;
  expect((out.forModel as { error: string }).error).toMatch(named);
  expect(pool.session("alice", server).status().lastError?.message).toMatch(named);
}, 120_000);
