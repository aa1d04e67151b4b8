/**
 * The "prompt release" figure of `npm run bench` (also runnable alone: `npx tsx bench/release-memory.ts`):
 * many users' connections in one engine pool, with this process's RSS and the upstream server's
 * open sessions before, at peak, after idle eviction and after the servers are deleted
 * (`closeServer`). Uses the hostile HTTP fixture's well-behaved mode, which counts its sessions.
 * Run with `node --expose-gc --import tsx` for figures after a collection.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { McpPool } from "../lib/mcp";
import { freePort } from "../tests/helpers/ports";

/** One row of the figure. */
export interface MemoryRow {
  phase: string;
  rssMb: number;
  heapMb: number;
  upstreamSessions: number;
  /** Exact figures, for per-connection figures. */
  rssBytes: number;
  heapBytes: number;
}

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

/** Run `users` × `servers` connections through one pool and record each phase. */
export async function releaseMemory(root: string, users = 100, servers = 3): Promise<MemoryRow[]> {
  const port = await freePort();
  const fixture: ChildProcess = spawn(process.execPath, [path.join(root, "tests/fixtures/mcp/hostile-http.mjs")], {
    env: { ...process.env, PORT: String(port) },
    stdio: "ignore",
  });
  try {
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 100; i++) {
      if (
        await fetch(`${base}/stats`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const sessions = async () => ((await (await fetch(`${base}/stats`)).json()) as { sessionsOpen: number }).sessionsOpen;
    const rows: MemoryRow[] = [];
    const record = async (phase: string) => {
      // With --expose-gc the figure shows what is still referenced, not garbage not yet collected.
      (globalThis as { gc?: () => void }).gc?.();
      const memory = process.memoryUsage();
      rows.push({
        phase,
        rssMb: mb(memory.rss),
        heapMb: mb(memory.heapUsed),
        upstreamSessions: await sessions(),
        rssBytes: memory.rss,
        heapBytes: memory.heapUsed,
      });
    };
    const idleMs = 3000;
    const pool = new McpPool({ idleTimeoutMs: idleMs });
    const definitions = Array.from({ length: servers }, (_, i) => ({
      id: `srv-${i}`,
      name: `srv${i}`,
      config: { url: `${base}/mcp/good?s=${i}` },
    }));
    // One user's connections opened and closed first: loading and compiling the client's code is
    // not what a connection keeps.
    await pool.discover("warm-up", definitions);
    await pool.closeUser("warm-up");
    await record("before");
    const connectAll = async () => {
      for (let u = 0; u < users; u += 10) {
        await Promise.all(Array.from({ length: Math.min(10, users - u) }, (_, k) => pool.discover(`user-${u + k}`, definitions)));
      }
    };
    await connectAll();
    await record(`peak (${users} users × ${servers} servers)`);
    await new Promise((r) => setTimeout(r, idleMs + 1500));
    await record("after idle eviction");
    await connectAll();
    for (const definition of definitions) await pool.closeServer(definition.id);
    await record("after deleting the servers");
    await pool.closeAll();
    return rows;
  } finally {
    fixture.kill("SIGTERM");
  }
}

/**
 * The figure in a fresh process of its own (`node --expose-gc`), so its RSS is the pool's and not
 * whatever the bench did before in the same process.
 */
export function releaseMemoryApart(root: string): MemoryRow[] {
  const child = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", path.join(root, "bench/release-memory.ts"), "--json"], {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  if (child.status !== 0) throw new Error(`bench/release-memory.ts failed (exit ${child.status})`);
  return JSON.parse(child.stdout.trim().split("\n").pop() ?? "[]") as MemoryRow[];
}

if (process.argv[1]?.endsWith("release-memory.ts")) {
  releaseMemory(path.resolve(import.meta.dirname, ".."))
    .then((rows) => {
      if (process.argv.includes("--json")) {
        console.log(JSON.stringify(rows));
        return;
      }
      console.log("| phase | RSS MB | heap MB | upstream sessions open |\n|---|---|---|---|");
      for (const row of rows) console.log(`| ${row.phase} | ${row.rssMb} | ${row.heapMb} | ${row.upstreamSessions} |`);
    })
    .catch((error) => {
      console.error(error);
      process.exitCode = 1;
    });
}
