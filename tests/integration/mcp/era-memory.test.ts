/**
 * A legacy verdict saves the `server/discover` probe (a request the server pays for too) on every
 * later connect to the same endpoint: under another name, with other settings, from another pool.
 */
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, expect, it } from "vitest";
import { McpPool } from "@/lib/mcp";
import { def, EVERYTHING, freePort, startHttpServer, stopProcess } from "./helpers";

let http: ChildProcess | undefined;
let url = "";
beforeAll(async () => {
  const port = await freePort();
  url = `http://127.0.0.1:${port}/mcp`;
  http = await startHttpServer([EVERYTHING, "streamableHttp"], { PORT: String(port) }, url);
});
afterAll(() => stopProcess(http));

// The JSON-RPC methods the engine POSTs, in order.
function recordingFetch(methods: string[]) {
  return async (input: string | URL, init?: RequestInit) => {
    if (typeof init?.body === "string") methods.push((JSON.parse(init.body) as { method?: string }).method ?? "(answer)");
    return fetch(input, init);
  };
}

async function connectOnce(name: string, config: Record<string, unknown>, methods: string[]) {
  const pool = new McpPool({ fetch: recordingFetch(methods) });
  try {
    const [status] = await pool.discover("alice", [def(name, { url, ...config })]);
    expect(status.lastError).toBeNull();
    return status;
  } finally {
    await pool.closeAll();
  }
}

it("probes a new endpoint once, then connects with the 2025-11-25 handshake straight away", async () => {
  const first: string[] = [];
  expect((await connectOnce("everything", {}, first)).protocol?.era).toBe("legacy");
  expect(first.slice(0, 2)).toEqual(["server/discover", "initialize"]);

  // Another pool, another name, other host settings: the same server answers.
  const later: string[] = [];
  const status = await connectOnce("renamed", { timeout: 30, tools: { exclude: ["echo"] } }, later);
  expect(status.protocol).toEqual({ era: "legacy", version: "2025-11-25" });
  expect(later).not.toContain("server/discover");
  expect(later[0]).toBe("initialize");
  expect(later).toContain("tools/list");
});
