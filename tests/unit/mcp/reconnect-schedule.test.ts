/**
 * The reconnect schedule after a drop (docs/architecture.md#connection-lifecycle) driven by a fake clock: 1, 2, 4, 8, 16 s,
 * then `failed` with the reason. The first connection is a real fixture child that crashes; every
 * later launch points at a missing command so each retry fails fast.
 */
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { McpPool } from "@/lib/mcp";
import type { Clock } from "@/lib/mcp/clock";
import { parseServerConfig } from "@/lib/mcp/config";
import type { LaunchWrapper } from "@/lib/mcp/launch";

/** Manual clock: timers fire only when the test advances time. */
class FakeClock implements Clock {
  time = 1_000_000;
  private timers: { at: number; fn: () => void; id: number }[] = [];
  private nextId = 0;
  now = () => this.time;
  setTimeout = (fn: () => void, ms: number) => {
    const id = ++this.nextId;
    this.timers.push({ at: this.time + ms, fn, id });
    return id;
  };
  clearTimeout = (handle: unknown) => {
    this.timers = this.timers.filter((t) => t.id !== handle);
  };
  advance(ms: number) {
    this.time += ms;
    const due = this.timers.filter((t) => t.at <= this.time).sort((a, b) => a.at - b.at);
    this.timers = this.timers.filter((t) => t.at > this.time);
    for (const t of due) t.fn();
  }
}

async function until(check: () => boolean, what: string) {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("reconnect schedule", () => {
  const clock = new FakeClock();
  let launches = 0;
  const wrapper: LaunchWrapper = async (launch) => {
    launches++;
    return launches === 1 ? launch : { ...launch, command: "/nonexistent/switchboard-missing" };
  };
  const pool = new McpPool({ clock, launchWrapper: wrapper, killGraceMs: 500 });
  afterAll(() => pool.closeAll());
  const server = {
    id: "flaky",
    name: "flaky",
    config: parseServerConfig({ command: process.execPath, args: [path.resolve(__dirname, "../../fixtures/mcp/fault-server.mjs")] }),
  };

  it("retries at 1, 2, 4, 8, 16 s and then reports failed with the reason", async () => {
    const [status] = await pool.discover("u", [server]);
    expect(status.state).toBe("connected");
    const crash = await pool.session("u", server).callTool("crash", {});
    expect(crash.errorCode).toBe("connection_closed");

    const delays: number[] = [];
    for (let attempt = 1; attempt <= 5; attempt++) {
      await until(() => pool.session("u", server).status().reconnect?.attempt === attempt, `attempt ${attempt} scheduled`);
      const { reconnect, state } = pool.session("u", server).status();
      expect(state).toBe("reconnecting");
      const delay = reconnect!.at - clock.now();
      delays.push(delay);
      const launchesBefore = launches;
      clock.advance(delay - 1);
      await new Promise((r) => setTimeout(r, 20));
      expect(launches).toBe(launchesBefore); // not a millisecond early
      clock.advance(1);
      await until(() => launches === launchesBefore + 1, `attempt ${attempt} launched`);
    }
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16000]);
    await until(() => pool.session("u", server).status().state === "failed", "failed state");
    const final = pool.session("u", server).status();
    expect(final.lastError?.message).toMatch(/gave up after 5 reconnect attempts; last error: .*command not found/);
    expect(final.lastError?.code).toBe("command_not_found");
  });

  it("a later discovery tries again from scratch", async () => {
    const [status] = await pool.discover("u", [server]);
    expect(status.state).toBe("failed");
    expect(launches).toBe(7);
  });
});

describe("idle eviction", () => {
  const clock = new FakeClock();
  const pool = new McpPool({ clock, idleTimeoutMs: 5000, killGraceMs: 500 });
  afterAll(() => pool.closeAll());
  const server = {
    id: "idle",
    name: "idle",
    config: parseServerConfig({
      command: process.execPath,
      args: [path.resolve(__dirname, "../../fixtures/mcp/fault-server.mjs")],
      supports_parallel_tool_calls: true,
    }),
  };

  it("never evicts while a call is in flight, then evicts after the idle time", async () => {
    const [status] = await pool.discover("u", [server]);
    const pid = status.pid!;
    const slow = pool.session("u", server).callTool("slow", { ms: 400, label: "s" });
    await new Promise((r) => setTimeout(r, 100));
    clock.advance(60_000);
    expect(pool.session("u", server).status().state).toBe("connected");
    expect((await slow).isError).toBe(false);
    clock.advance(4999);
    expect(pool.session("u", server).status().state).toBe("connected");
    clock.advance(1);
    await until(() => pool.session("u", server).status().state === "idle", "eviction");
    await until(() => {
      try {
        process.kill(pid, 0);
        return false;
      } catch {
        return true; // ESRCH: the child is gone
      }
    }, "child exit");
    const again = await pool.session("u", server).callTool("echo", { message: "woke" });
    expect(again.forModel).toEqual({ result: "echo: woke" });
  });
});
