/**
 * Tool calls as tasks (docs/protocol.md#tasks) against server-everything's task-only tool
 * `simulate-research-query` (taskSupport: required) over stdio: call, poll with status shown as
 * progress, result; an abort sends `tasks/cancel`, which the server acknowledges as cancelled.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { McpPool } from "@/lib/mcp";
import { def, EVERYTHING, FIXTURES, waitUntil } from "./helpers";

const pools: McpPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.closeAll()));
});

function tapped() {
  const log = path.join(mkdtempSync(path.join(tmpdir(), "sb-tasks-")), "wire.log");
  const server = def("everything", {
    command: process.execPath,
    args: [path.join(FIXTURES, "wire-tap.mjs"), log, process.execPath, EVERYTHING, "stdio"],
  });
  const wire = () => {
    try {
      return readFileSync(log, "utf8").split("\n").filter(Boolean);
    } catch {
      return []; // nothing written yet
    }
  };
  return { server, wire };
}

function pool() {
  const p = new McpPool();
  pools.push(p);
  return p;
}

describe("tasks (2025-11-25)", () => {
  it("calls a task-required tool as a task, polls it with its status as progress, and returns the result", async () => {
    const { server, wire } = tapped();
    const progress: string[] = [];
    const outcome = await pool()
      .session("u1", server)
      .callTool(
        "simulate-research-query",
        { topic: "tides" },
        {
          onProgress: (p) => progress.push(p.message ?? ""),
        },
      );
    expect(outcome.isError).toBe(false);
    expect(JSON.stringify(outcome.content)).toContain("Research Report: tides");
    // Polled once a second while the stages change about once a second: which stages are seen varies.
    expect(progress[0]).toBe("working: Gathering sources...");
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.every((m) => /^(working|completed)\b/.test(m))).toBe(true);
    const sent = wire().filter((l) => l.startsWith("> "));
    expect(sent.some((l) => l.includes('"tools/call"') && l.includes('"task":{"ttl"'))).toBe(true);
    expect(sent.some((l) => l.includes('"tasks/get"'))).toBe(true);
    expect(sent.some((l) => l.includes('"tasks/result"'))).toBe(true);
    // Polling honours the server's 1 s pollInterval: about one tasks/get per second over ~4 s of work.
    expect(sent.filter((l) => l.includes('"tasks/get"')).length).toBeLessThanOrEqual(8);
  }, 30_000);

  it("fetches the result of an input_required task, answering the server's question through the elicitation hook", async () => {
    const { server } = tapped();
    const asked: string[] = [];
    const p = new McpPool({
      onElicitation: async (_user, _server, params) => {
        asked.push(params.message);
        return { action: "accept", content: { interpretation: "historical" } };
      },
    });
    pools.push(p);
    const progress: string[] = [];
    const outcome = await p.session("u1", server).callTool(
      "simulate-research-query",
      { topic: "tides", ambiguous: true },
      {
        onProgress: (e) => progress.push(e.message ?? ""),
      },
    );
    expect(outcome.isError).toBe(false);
    expect(asked[0]).toContain("could have multiple interpretations");
    expect(progress.some((m) => m.startsWith("input_required"))).toBe(true);
    expect(JSON.stringify(outcome.content)).toContain("Research Report: tides (historical)");
  }, 30_000);

  it("cancels the task on the server when the call is aborted", async () => {
    const { server, wire } = tapped();
    const abort = new AbortController();
    const outcome = await pool()
      .session("u1", server)
      .callTool(
        "simulate-research-query",
        { topic: "storms" },
        {
          signal: abort.signal,
          onProgress: () => abort.abort(),
        },
      );
    expect(outcome.isError).toBe(true);
    expect(outcome.errorCode).toBe("cancelled");
    await waitUntil(
      () => wire().some((l) => l.startsWith("< ") && l.includes('"status":"cancelled"')),
      10_000,
      "the server's cancelled task",
    );
    const cancel = wire().find((l) => l.startsWith("> ") && l.includes('"tasks/cancel"'));
    expect(cancel).toBeDefined();
    expect(wire().some((l) => l.includes('"tasks/result"'))).toBe(false);
  }, 30_000);

  it("calls a task-forbidden tool the ordinary way", async () => {
    const { server, wire } = tapped();
    const outcome = await pool().session("u1", server).callTool("echo", { message: "hi" });
    expect(outcome.isError).toBe(false);
    expect(wire().some((l) => l.includes('"task":{'))).toBe(false);
  }, 30_000);
});
