/**
 * Ctrl-C during a call: the command line (not the engine) closes every connection, so the stdio
 * server's process group is gone, and exits with 130 as SIGINT would have.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isAlive, waitUntil } from "../mcp/helpers";

const CLI = path.resolve("bin/switchboard.mjs");
const FAULT = path.resolve("tests/fixtures/mcp/fault-server.mjs");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-cli-signal-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** PIDs whose environment carries `marker` (the stdio server started for this test). */
function pidsWithMarker(marker: string): number[] {
  return fs
    .readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/environ`, "utf8").includes(marker);
      } catch {
        return false; // gone, or not ours to read
      }
    })
    .map(Number);
}

describe("switchboard CLI and signals", () => {
  it("closes the stdio server on SIGINT during a call and exits with 130", async () => {
    const marker = `SWITCHBOARD_SIGNAL_TEST=${process.pid}-${Date.now()}`;
    const config = path.join(dir, "switchboard.yaml");
    fs.writeFileSync(
      config,
      [
        "mcp_servers:",
        "  slow:",
        "    command: node",
        `    args: [${JSON.stringify(FAULT)}]`,
        `    env: { SWITCHBOARD_SIGNAL_TEST: "${marker.split("=")[1]}" }`,
        "",
      ].join("\n"),
    );
    const cli = spawn(process.execPath, [CLI, "call", "slow.slow", "ms=60000", "label=x", "--config", config], { stdio: "ignore" });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      cli.on("exit", (code, signal) => resolve({ code, signal })),
    );
    let servers: number[] = [];
    await waitUntil(
      () => {
        servers = pidsWithMarker(marker);
        return servers.length > 0;
      },
      30_000,
      "the stdio server to start",
    );
    await new Promise((r) => setTimeout(r, 500)); // let the call reach the server
    cli.kill("SIGINT");
    expect(await exited).toEqual({ code: 130, signal: null });
    await waitUntil(() => servers.every((pid) => !isAlive(pid)), 10_000, "the stdio server to be gone");
  }, 60_000);
});
