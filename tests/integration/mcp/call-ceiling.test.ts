/**
 * A tool call's total ceiling (`max_total_timeout`, docs/limits.md): a fixture tool that reports
 * progress forever keeps restarting `timeout`, yet the call ends at the ceiling with
 * `call_timeout` naming the setting, and the server is told to cancel.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { McpPool } from "@/lib/mcp";
import { fixture, waitUntil } from "./helpers";

const pool = new McpPool();
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "sb-ceiling-"));
afterAll(async () => {
  await pool.closeAll();
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe("max_total_timeout", () => {
  it("ends a call that keeps reporting progress at the ceiling, cancels it on the server, and keeps the connection", async () => {
    const server = fixture("forever", "fault-server.mjs", { timeout: 0.5, max_total_timeout: 1.5 });
    const log = path.join(scratch, "forever.log");
    await pool.discover("u", [server]); // connected first: the duration below is the call's alone
    let progress = 0;
    // Without a ceiling the call would run until this outer stop (and fail as "cancelled").
    const outcome = await pool
      .session("u", server)
      .callTool("progress_forever", { everyMs: 100, log }, { signal: AbortSignal.timeout(8000), onProgress: () => progress++ });
    expect(outcome.isError).toBe(true);
    expect(outcome.errorCode).toBe("call_timeout");
    const message = (outcome.forModel as { error: string }).error;
    expect(message).toMatch(/ran longer than `max_total_timeout` \(1\.5 s\).*raise `max_total_timeout`/);
    // Progress restarted the 0.5 s timeout many times; the 1.5 s ceiling did not move.
    expect(progress).toBeGreaterThan(5);
    expect(outcome.durationMs).toBeGreaterThanOrEqual(1400);
    expect(outcome.durationMs).toBeLessThan(4000);
    await waitUntil(() => fs.existsSync(log) && fs.readFileSync(log, "utf8").includes("cancelled"), 5000, "server saw the cancel");
    const after = await pool.session("u", server).callTool("echo", { message: "still here" });
    expect(after.forModel).toEqual({ result: "echo: still here" });
  });

  it("a call without progress still ends at its own timeout, named as such", async () => {
    const server = fixture("quiet", "fault-server.mjs", { timeout: 0.5, max_total_timeout: 30 });
    const outcome = await pool.session("u", server).callTool("slow", { ms: 5000, label: "quiet" });
    expect(outcome.errorCode).toBe("call_timeout");
    expect((outcome.forModel as { error: string }).error).toMatch(/timed out after 0\.5 s without progress; raise `timeout`/);
  });
});
