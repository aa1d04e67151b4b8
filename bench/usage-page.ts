/**
 * The Usage page's goal (docs/usage.md): 1,000,000 recorded calls seeded through the recording
 * writer into a fresh SQLite file (30 days, 20 members, 5 servers × 8 tools), then the workspace's
 * report over the 30 days, timed eleven times. Shared by bench/usage.ts and `npm run bench -- --usage`.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Db } from "../db/client";
import { openDatabase } from "../db/client";
import { flushUsage } from "../db/queries/usage-rows";
import { createUserWithWorkspace } from "../db/queries/users";
import { getPersonalWorkspaceId } from "../db/queries/workspaces";
import { recordMcpRequest } from "../lib/usage/record";
import { usageReport } from "../lib/usage/report";

/** What the page's run measured. */
export interface UsagePageFigure {
  seeded: number;
  seedSeconds: number;
  medianMs: number;
  worstMs: number;
}

/** Seed `seeded` calls into `workspaceId` of `db` through the recording writer and time the page's report. */
export async function usagePageFigure(db: Db, workspaceId: string, seeded: number): Promise<UsagePageFigure> {
  const t0 = performance.now();
  const now = Date.now();
  for (let i = 0; i < seeded; i++) {
    await recordMcpRequest(
      db,
      {
        userId: `member-${i % 20}`,
        workspaceId,
        serverId: `server-${i % 5}`,
        serverName: `server ${i % 5}`,
        kind: "tool",
        name: `tool-${i % 8}`,
        durationMs: 5 + ((i * 7919) % 400),
        outcome: i % 50 === 0 ? "tool_error" : "ok",
        bytesIn: 40,
        bytesOut: 400,
      },
      new Date(now - (i % 30) * 86_400_000),
    );
    if (i % 20_000 === 19_999) await flushUsage(db);
  }
  await flushUsage(db);
  const seedSeconds = (performance.now() - t0) / 1000;
  const to = new Date(now).toISOString().slice(0, 10);
  const from = new Date(now - 29 * 86_400_000).toISOString().slice(0, 10);
  const times: number[] = [];
  for (let i = 0; i < 11; i++) {
    const t = performance.now();
    const report = await usageReport(db, { from, to, workspaceId });
    times.push(performance.now() - t);
    if (report.totals.mcpCalls < seeded) throw new Error(`the report counted ${report.totals.mcpCalls} calls`);
  }
  const sorted = [...times].sort((a, b) => a - b);
  return { seeded, seedSeconds, medianMs: sorted[Math.floor(sorted.length / 2)], worstMs: sorted[sorted.length - 1] };
}

/** The page's figure on a throw-away database of its own (the `--usage` mode runs it after the API figures). */
export async function usagePageOnFreshDatabase(seeded: number): Promise<UsagePageFigure> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "usage-page-bench-"));
  const before = process.env.SWITCHBOARD_DATA_DIR;
  process.env.SWITCHBOARD_DATA_DIR = dir;
  process.env.SWITCHBOARD_SECRET_KEY ??= "usage-bench-key-usage-bench-key-usage-bench";
  const { db, sqlite } = openDatabase(path.join(dir, "bench.db"));
  try {
    const user = (await createUserWithWorkspace(db, { email: "bench@example.com", name: "Bench", passwordHash: "x" }))!;
    const workspaceId = (await getPersonalWorkspaceId(db, user.id))!;
    return await usagePageFigure(db, workspaceId, seeded);
  } finally {
    sqlite.close();
    if (before === undefined) delete process.env.SWITCHBOARD_DATA_DIR;
    else process.env.SWITCHBOARD_DATA_DIR = before;
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The page's figure as the line the benches print. */
export function describeUsagePage(figure: UsagePageFigure): string {
  const n = figure.seeded.toLocaleString("en-US");
  return (
    `usage page of the workspace over ${n} calls (30 days; seeded in ${figure.seedSeconds.toFixed(1)} s): ` +
    `median ${figure.medianMs.toFixed(1)} ms, worst ${figure.worstMs.toFixed(1)} ms (goal ≤ 300 ms)`
  );
}
