/**
 * Fault fixtures through the pool: crash mid-call then reconnect, a server that never answers
 * initialize, an over-long result, colliding names, credentials in errors, list_changed, garbage
 * on stdout (warned about at a bounded rate), the stdio environment allow-list, and specific
 * troubleshooting messages.
 */
import { afterAll, describe, expect, it } from "vitest";
import { McpPool } from "@/lib/mcp";
import { def, fixture, isAlive, waitUntil } from "./helpers";

const SECRET = "fixture-secret-value-123";
const pool = new McpPool({ maxMessageBytes: 64 * 1024, killGraceMs: 1000 });
afterAll(() => pool.closeAll());

describe("a crash mid-call", () => {
  it("fails the call clearly, then reconnects on its own", async () => {
    const server = fixture("crashy", "fault-server.mjs");
    const [first] = await pool.discover("u", [server]);
    expect(first.state).toBe("connected");
    const pid = first.pid!;

    const out = await pool.session("u", server).callTool("crash", {});
    expect(out.isError).toBe(true);
    expect(out.errorCode).toBe("connection_closed");
    expect((out.forModel as { error: string }).error).toMatch(/closed the connection during the call \(process exited with code 3\)/);
    expect((out.forModel as { error: string }).error).toContain("about to crash");

    // The first retry is scheduled 1 s after the drop (docs/architecture.md#connection-lifecycle); the schedule itself is unit-tested.
    await waitUntil(() => pool.session("u", server).status().state === "connected", 30_000, "reconnect");
    const status = pool.session("u", server).status();
    expect(status.pid).not.toBe(pid);
    expect(isAlive(pid)).toBe(false);
    const again = await pool.session("u", server).callTool("echo", { message: "back" });
    expect(again.forModel).toEqual({ result: "echo: back" });
  });
});

describe("connect problems", () => {
  it("times out a server that never answers initialize and kills it", async () => {
    const server = fixture("silent", "silent-server.mjs", { connect_timeout: 1.5 });
    const [status] = await pool.discover("u", [server]);
    expect(status.state).toBe("failed");
    expect(status.lastError?.code).toBe("connect_timeout");
    expect(status.lastError?.message).toMatch(/within 1\.5 s.*raise `connect_timeout`/s);
    expect(status.lastError?.message).toContain("never answering");
    const pid = Number(/silent fixture pid (\d+)/.exec(status.lastError!.message)?.[1]);
    expect(pid).toBeGreaterThan(0);
    await waitUntil(() => !isAlive(pid), 10_000, "silent server to be killed");
  });

  it("names a missing command", async () => {
    const [status] = await pool.discover("u", [def("nocmd", { command: "switchboard-no-such-command-xyz" })]);
    expect(status.lastError?.code).toBe("command_not_found");
    expect(status.lastError?.message).toContain('command not found: "switchboard-no-such-command-xyz"');
  });

  it("retries a failed server on the next discovery without blocking the others", async () => {
    const bad = def("bad", { command: "switchboard-no-such-command-xyz" });
    const good = fixture("good", "fault-server.mjs");
    const statuses = await pool.discover("u2", [bad, good]);
    expect(statuses.map((s) => s.state)).toEqual(["failed", "connected"]);
    const again = await pool.discover("u2", [bad, good]);
    expect(again[0].state).toBe("failed");
    expect(again[1].pid).toBe(statuses[1].pid);
  });
});

describe("messages", () => {
  const server = fixture("faulty", "fault-server.mjs", { env: { FIXTURE_SECRET: SECRET, FAULT_BANNER: "1" } });

  it("fails an over-long result with a clear error and keeps the connection", async () => {
    const out = await pool.session("u", server).callTool("big", { bytes: 200_000 });
    expect(out.isError).toBe(true);
    expect(out.errorCode).toBe("message_too_large");
    expect((out.forModel as { error: string }).error).toMatch(/result exceeds 65536 bytes/);
    const next = await pool.session("u", server).callTool("echo", { message: "still here" });
    expect(next.forModel).toEqual({ result: "echo: still here" });
  });

  it("drops garbage lines (and a startup banner) and keeps going", async () => {
    const out = await pool.session("u", server).callTool("garbage", {});
    expect(out.forModel).toEqual({ result: "after garbage" });
    const next = await pool.session("u", server).callTool("echo", { message: "ok" });
    expect(next.forModel).toEqual({ result: "echo: ok" });
  });

  it("warns about garbage lines once per minute, counting the rest", async () => {
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, error() {}, warn: (message: string) => warnings.push(message) };
    const quiet = new McpPool({ killGraceMs: 1000, logger });
    try {
      for (let i = 0; i < 3; i++)
        expect((await quiet.session("u", server).callTool("garbage", {})).forModel).toEqual({ result: "after garbage" });
      // One banner and 3 × 3 garbage lines: one warning.
      expect(warnings.filter((w) => w.startsWith("dropped a stdout line"))).toHaveLength(1);
    } finally {
      await quiet.closeAll();
    }
  });

  it("redacts credentials and the server's own secret values in errors", async () => {
    const leak = await pool.session("u", server).callTool("leak", {});
    expect(leak.isError).toBe(true);
    const text = (leak.forModel as { error: string }).error;
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain("abc.def.ghi");
    expect(text).not.toContain("ghp_aaaa");
    expect(JSON.stringify(leak.content)).not.toContain(SECRET);

    const thrown = await pool.session("u", server).callTool("throw", {});
    const thrownText = (thrown.forModel as { error: string }).error;
    expect(thrownText).not.toContain("hunter2hunter2");
    expect(thrownText).not.toContain(SECRET);
  });

  it("gives the child only the allow-listed environment plus config env", async () => {
    process.env.SWITCHBOARD_FAKE_API_KEY = "sk-parent-secret-should-not-leak";
    process.env.XDG_SB_TEST = "xdg-ok";
    try {
      const envServer = fixture("envcheck", "fault-server.mjs", { env: { EXTRA: "from-config" } });
      const out = await pool.session("u", envServer).callTool("env", {});
      // The UI content keeps the result as the server sent it; the model's view masks the config's
      // own env values, which are secrets as far as the engine knows.
      const env = (out.content.structuredContent as { env: Record<string, string> }).env;
      expect((out.forModel as { result: { env: Record<string, string> } }).result.env.EXTRA).toBe("[REDACTED]");
      expect(env.SWITCHBOARD_FAKE_API_KEY).toBeUndefined();
      expect(env.EXTRA).toBe("from-config");
      expect(env.XDG_SB_TEST).toBe("xdg-ok");
      const allowed = new Set(["PATH", "HOME", "USER", "LANG", "LC_ALL", "TERM", "SHELL", "TMPDIR", "EXTRA"]);
      // Node itself may add a few variables to its own environment at startup; none come from us.
      const unexpected = Object.keys(env).filter((k) => !allowed.has(k) && !k.startsWith("XDG_"));
      expect(unexpected.filter((k) => k in process.env)).toEqual([]);
    } finally {
      delete process.env.SWITCHBOARD_FAKE_API_KEY;
      delete process.env.XDG_SB_TEST;
    }
  });
});

describe("registration", () => {
  it("suffixes tool names that collide after normalisation and routes each back correctly", async () => {
    const server = fixture("collide", "fault-server.mjs", { env: { FAULT_COLLIDE: "1" } });
    const tools = await pool.session("u", server).listTools();
    const colliding = tools.filter((t) => ["list-items", "list.items", "list_items"].includes(t.rawName));
    expect(colliding).toHaveLength(3);
    const names = colliding.map((t) => t.name);
    expect(new Set(names).size).toBe(3);
    for (const tool of colliding) {
      expect(tool.name).toMatch(/^mcp_collide_list_items_[0-9a-f]{6}$/);
      const out = await pool.callRegistered("u", [server], tool.name, {});
      expect(out.forModel).toEqual({ result: `ran ${tool.rawName}` });
    }
  });

  it("refreshes the registration on tools/list_changed", async () => {
    const server = fixture("changing", "fault-server.mjs");
    const before = await pool.session("u", server).listTools();
    expect(before.some((t) => t.rawName === "late_tool")).toBe(false);
    await pool.session("u", server).callTool("add_tool", { name: "late_tool" });
    await waitUntil(
      async () => (await pool.session("u", server).listTools()).some((t) => t.rawName === "late_tool"),
      20_000,
      "list_changed refresh",
    );
    const out = await pool.callRegistered("u", [server], "mcp_changing_late_tool", {});
    expect(out.forModel).toEqual({ result: "late_tool ran" });
  });

  it("applies include/exclude on raw names and refuses filtered-out tools", async () => {
    const server = fixture("filtered", "fault-server.mjs", { tools: { include: ["echo"], exclude: ["echo"] } });
    const tools = await pool.session("u", server).listTools();
    expect(tools.map((t) => t.rawName)).toEqual(["echo"]);
    const out = await pool.session("u", server).callTool("env", {});
    expect(out.errorCode).toBe("not_found");
  });

  it("does not connect a disabled server", async () => {
    const server = fixture("off", "fault-server.mjs", { enabled: false });
    const [status] = await pool.discover("u", [server]);
    expect(status.state).toBe("disabled");
    expect(status.pid).toBeNull();
    expect(await pool.toolset("u", [server])).toEqual([]);
  });
});
