/**
 * A cap fails exactly the message it caps (docs/limits.md): an over-cap stdio line is discarded up
 * to its newline and the link resynchronises there; over legacy HTTP+SSE an over-cap event is
 * discarded up to its end and the event stream (the whole session) stays. The request that message
 * answered fails with the cap's message, no other; the very next call succeeds. A cap that fires
 * while connecting fails the connect at once, not after `connect_timeout`.
 */
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpPool, type ServerDefinition } from "@/lib/mcp";
import { def, FIXTURES, fixture, freePort, startHttpServer, stopProcess } from "./helpers";

const MB = 1024 * 1024;
const CAP = /exceeds 16777216 bytes.*SWITCHBOARD_MCP_MAX_MESSAGE_BYTES/;
const pool = new McpPool({ killGraceMs: 1000 });
let server: ChildProcess | undefined;
let base = "";

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = await startHttpServer([path.join(FIXTURES, "hostile-http.mjs")], { PORT: String(port) }, `${base}/stats`);
});

afterAll(async () => {
  await pool.closeAll();
  await stopProcess(server);
});

const wires = {
  stdio: (mode: string, extra: Record<string, unknown> = {}) =>
    fixture(`cap_${mode.replaceAll("-", "_")}`, "hostile-stdio.mjs", { env: { HOSTILE_MODE: mode }, ...extra }, `cap-stdio-${mode}`),
  "legacy SSE": (mode: string, extra: Record<string, unknown> = {}) =>
    def(`cap_${mode.replaceAll("-", "_")}`, { url: `${base}/legacy/${mode}/sse`, ...extra }, `cap-sse-${mode}`),
};

const errorOf = (out: { errorCode?: string; forModel: unknown }) => ({
  code: out.errorCode,
  message: (out.forModel as { error?: string }).error ?? "",
});

describe.each(Object.keys(wires) as (keyof typeof wires)[])("over %s", (wire) => {
  const server = (mode: string, extra?: Record<string, unknown>) => wires[wire](mode, extra);
  const echo = (definition: ServerDefinition, message: string) => pool.session(wire, definition).callTool("echo", { message });
  // stdio keeps its own code for the size cap; the HTTP wires share the limits' one (docs/errors.md).
  const sizeCode = wire === "stdio" ? "message_too_large" : "limit_exceeded";

  it.each([
    ["a 100 MB message, id first", { bytes: 100 * MB }],
    ["a 27 MB message of many keys, id last", { bytes: 27 * MB, keys: true, idLast: true }],
  ])("%s fails its call with the cap's message, and the very next call succeeds", async (_, args) => {
    const good = server("good");
    const out = await pool.session(wire, good).callTool("huge", args);
    expect(errorOf(out)).toMatchObject({ code: sizeCode, message: expect.stringMatching(CAP) });
    expect((await echo(good, "next")).forModel).toEqual({ result: "echo: next" });
    expect((await echo(good, "and the next")).forModel).toEqual({ result: "echo: and the next" });
  });

  it("fails only the call it answered while other calls, older and newer, run beside it", async () => {
    const good = server("good");
    const older = pool.session(wire, good).callTool("slow", { ms: 3000 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const [big, ...others] = await Promise.all([
      pool.session(wire, good).callTool("huge", { bytes: 27 * MB, idLast: true }),
      echo(good, "one"),
      older,
    ]);
    expect(errorOf(big)).toMatchObject({ code: sizeCode, message: expect.stringMatching(CAP) });
    expect(others.map((o) => o.forModel)).toEqual([{ result: "echo: one" }, { result: "slow done" }]);
  });

  it.each(["endless-init", "endless-init-tail"])(
    "a connect answered by an endless message (%s) fails at once, naming the cap",
    async (mode) => {
      const started = Date.now();
      const [status] = await pool.discover(wire, [server(mode)]);
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(status.state).toBe("failed");
      expect(status.lastError).toMatchObject({ code: sizeCode, message: expect.stringMatching(CAP) });
    },
  );
});
