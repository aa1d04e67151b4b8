/**
 * What the live status stream is fed from: the pool's status hook reports a killed stdio server as
 * reconnecting and then connected again without anyone asking, and the tool count is the count of
 * the tools listed (after the config's filter, without the resource/prompt helper tools).
 */
import { afterAll, describe, expect, it } from "vitest";
import { McpPool } from "@/lib/mcp";
import type { ServerStatus } from "@/lib/mcp/types";
import { def, EVERYTHING } from "../mcp/helpers";

const seen: ServerStatus[] = [];
const pool = new McpPool({ killGraceMs: 500, onStatusChange: (status) => seen.push(status) });
afterAll(() => pool.closeAll());

async function waitFor(check: () => boolean, ms: number, what: string) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("status hook", () => {
  it("counts what is listed: filtered tools, helpers apart", async () => {
    const server = def("filtered", { command: process.execPath, args: [EVERYTHING, "stdio"], tools: { include: ["echo", "get-sum"] } });
    const [status] = await pool.discover("alice", [server]);
    expect(status.state).toBe("connected");
    const listed = await pool.session("alice", server).listTools();
    expect(
      listed
        .filter((t) => t.kind === "tool")
        .map((t) => t.rawName)
        .sort(),
    ).toEqual(["echo", "get-sum"]);
    expect(status.counts.tools).toBe(2);
    expect(listed.length).toBeGreaterThan(2); // the helpers are listed too, and counted apart
  });

  it("pushes reconnecting and then connected after the server is killed", async () => {
    const server = def("killed", { command: process.execPath, args: [EVERYTHING, "stdio"] });
    const [status] = await pool.discover("alice", [server]);
    expect(status.state).toBe("connected");
    seen.length = 0;
    process.kill(status.pid!, "SIGKILL");
    await waitFor(() => seen.some((s) => s.serverId === "killed" && s.state === "reconnecting"), 10_000, "reconnecting");
    const reconnecting = seen.find((s) => s.state === "reconnecting")!;
    expect(reconnecting.reconnect).toMatchObject({ attempt: 1 });
    await waitFor(() => seen.at(-1)?.state === "connected", 20_000, "connected again");
    expect(seen.at(-1)!.pid).not.toBe(status.pid);
  });
});
