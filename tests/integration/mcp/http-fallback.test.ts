/** Legacy HTTP+SSE fallback after a 405 on the initialize POST, and a 401 → needs_authorization. */
import path from "node:path";
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, expect, it } from "vitest";
import { McpPool } from "@/lib/mcp";
import { def, FIXTURES, freePort, startHttpServer, stopProcess } from "./helpers";

let server: ChildProcess | undefined;
let base = "";
const pool = new McpPool();
beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = await startHttpServer([path.join(FIXTURES, "legacy-sse-server.mjs")], { PORT: String(port) }, `${base}/nothing`);
});
afterAll(async () => {
  await pool.closeAll();
  await stopProcess(server);
});

it("falls back to legacy SSE when Streamable HTTP is refused with 405", async () => {
  const legacy = def("legacy", { url: `${base}/legacy` });
  const [status] = await pool.discover("u", [legacy]);
  expect(status.lastError).toBeNull();
  expect(status.transport).toBe("sse");
  const out = await pool.session("u", legacy).callTool("echo", { message: "old" });
  expect(out.forModel).toEqual({ result: "legacy: old" });
});

it("maps a 401 to needs_authorization", async () => {
  const [status] = await pool.discover("u", [def("locked", { url: `${base}/protected`, connect_timeout: 10 })]);
  expect(status.state).toBe("needs_authorization");
  expect(status.lastError?.code).toBe("needs_authorization");
  expect(status.lastError?.message).toMatch(/needs authorization/);
});
