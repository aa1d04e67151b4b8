/**
 * Slow stdio servers (tests/fixtures/mcp/slow-start-server.mjs reads stdin only after a delay, as
 * `npx -y` or a Python server's imports do): the `server/discover` probe's own 5 s bound never
 * shortens `connect_timeout` — a probe that times out falls back to the 2025-11-25 handshake on the
 * same process — and a stop the app made is never reported as the server's exit.
 */
import { afterAll, describe, expect, it } from "vitest";
import { McpPool } from "@/lib/mcp";
import { ChildProcessTransport } from "@/lib/mcp/stdio-transport";
import { fixture, FIXTURES } from "./helpers";

const pool = new McpPool({ killGraceMs: 1000 });
afterAll(() => pool.closeAll());

const slow = (ms: number, extra: Record<string, unknown> = {}, id = `slow-${ms}-${JSON.stringify(extra)}`) =>
  fixture(`slow_${ms}`, "slow-start-server.mjs", { env: { SLOW_START_MS: String(ms) }, ...extra }, id);

describe("a stdio server slow to start", () => {
  it("connects after 7 s and after 3 s with the default connect_timeout, on the process it started", async () => {
    const servers = [slow(7000), slow(3000)];
    const statuses = await pool.discover("u", servers);
    for (const status of statuses) {
      expect(status).toMatchObject({ state: "connected", lastError: null, protocol: { era: "legacy" } });
    }
    for (const server of servers) {
      expect((await pool.session("u", server).callTool("echo", { message: "late" })).forModel).toEqual({ result: "echo: late" });
    }
  });

  it("a connect_timeout shorter than the start fails as a timeout, never as the server's exit on our SIGTERM", async () => {
    const [status] = await pool.discover("u", [slow(7000, { connect_timeout: 3 })]);
    expect(status.lastError?.code).toBe("connect_timeout");
    expect(status.lastError?.message).toMatch(/within 3 s.*raise `connect_timeout`/s);
    expect(status.lastError?.message).not.toMatch(/SIGTERM|exited/);
  });

  it("a handshake the client ends names the server's fault, not our SIGTERM as its exit", async () => {
    const server = fixture("old", "hostile-stdio.mjs", { env: { HOSTILE_MODE: "bad-version" } });
    const [status] = await pool.discover("u", [server]);
    expect(status.state).toBe("failed");
    expect(status.lastError?.message).toContain("1999-01-01");
    expect(status.lastError?.message).not.toMatch(/SIGTERM|exited/);
  });

  it("a stop the app makes mid-connect is not reported as the server's exit", async () => {
    const server = slow(7000, {}, "stopped");
    const connecting = pool.discover("v", [server]);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await pool.close("v", server.id);
    await connecting;
    expect(JSON.stringify(pool.session("v", server).status())).not.toMatch(/SIGTERM|exited/);
  });
});

describe("the stdio transport's exit report", () => {
  const launch = (code: string) => ({
    command: process.execPath,
    args: ["-e", code],
    env: { PATH: process.env.PATH ?? "" },
    cwd: FIXTURES,
  });

  it("is empty after the host's own close", async () => {
    const transport = new ChildProcessTransport({ launch: launch("setInterval(() => {}, 1000)"), killGraceMs: 1000 });
    await transport.start();
    await transport.close();
    expect(transport.exitInfo).toBeNull();
  });

  it("names the code of a child that exited on its own", async () => {
    const transport = new ChildProcessTransport({ launch: launch("process.exit(3)") });
    const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
    await transport.start();
    await closed;
    expect(transport.exitInfo).toEqual({ code: 3, signal: null });
  });
});
