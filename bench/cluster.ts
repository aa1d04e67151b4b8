/**
 * `npm run bench -- --cluster 2` (issue 27): N replicas on Postgres + Redis behind the round-robin
 * proxy of the cluster tests (tests/helpers/cluster.ts), against one single-node instance on SQLite,
 * in the same run, with the same client (`fetch`) and the same MCP server on both sides:
 * - the API tool call: p50 of sequential calls (five rounds, the sides taking turns in each), and
 *   throughput at 64 in flight (sides interleaved, the median of three rounds each);
 * - a chat turn's first token (the scripted model), p50 (five rounds, the sides taking turns);
 * - failover: 64 calls in flight through the proxy, one replica killed with SIGKILL half-way, with a
 *   write (a new chat) every eighth request: failed requests, seconds until throughput is back, and
 *   acknowledged writes missing afterwards;
 * - beside the goals, the tool call and the first token of one node on Postgres, to tell the
 *   database's share of the gap from the cluster's.
 * The replicas stand behind Debian's nginx with deploy/nginx.conf, as documented: its hop is on the
 * cluster's side of the latency figures and in neither side's app CPU.
 */
import os from "node:os";
import path from "node:path";
import { type Cluster, startCluster } from "../tests/helpers/cluster";
import { freePort } from "../tests/helpers/ports";
import { startPostgres } from "../tests/helpers/postgres";
import { startRedis } from "../tests/helpers/redis";
import type { ClusterArgs } from "./args";
import { turn } from "./chat-bench";
import { goalsTable, type GoalRow, sequential, throughput } from "./goals";
import {
  apiEcho,
  createServer,
  percentile,
  ROOT,
  signIn,
  start,
  startApp,
  startEverything,
  stopChild,
  treeCpuMs,
  waitFor,
} from "./harness";

const CALLS = Number(process.env.BENCH_CALLS ?? 1000);
const THROUGHPUT_CALLS = Number(process.env.BENCH_THROUGHPUT_CALLS ?? 3000);
const TURNS = 25;

/** One turn's first token (ms from the request to the first text), the scripted model answering. */
async function firstTokenOnce(base: string, cookie: string): Promise<number> {
  const seen = await turn(base, cookie, "hello");
  const at = seen.get("text-delta");
  if (at === undefined) throw new Error(`no text in the answer: ${seen.text}`);
  return at;
}

const ROUNDS = 5;

/**
 * The first token's p50 on each side: three turns of warm-up each, then `ROUNDS` rounds of
 * `TURNS / ROUNDS` turns per side, the sides taking turns within each round (the machine's drift
 * lands on all of them), all of a side's turns pooled.
 */
async function firstTokens<K extends string>(sides: Record<K, { base: string; cookie: string }>): Promise<Record<K, number>> {
  const names = Object.keys(sides) as K[];
  const values = Object.fromEntries(names.map((k) => [k, [] as number[]])) as Record<K, number[]>;
  for (const k of names) for (let i = 0; i < 3; i++) await firstTokenOnce(sides[k].base, sides[k].cookie);
  for (let round = 0; round < ROUNDS; round++) {
    for (const k of round % 2 === 0 ? names : [...names].reverse()) {
      for (let i = 0; i < Math.ceil(TURNS / ROUNDS); i++) values[k].push(await firstTokenOnce(sides[k].base, sides[k].cookie));
    }
  }
  return Object.fromEntries(
    names.map((k) => [
      k,
      percentile(
        [...values[k]].sort((a, b) => a - b),
        50,
      ),
    ]),
  ) as Record<K, number>;
}

/**
 * Sequential calls on each side: the usual warm-up each, then `ROUNDS` rounds of `calls / ROUNDS`
 * per side, the sides taking turns within each round; a side's p50 and CPU per call are the
 * medians of its rounds (one long run per side let the machine's drift fall on one side only).
 */
async function sequentialRounds<K extends string>(
  sides: Record<K, { call: () => Promise<void>; cpu: () => number }>,
  calls: number,
): Promise<Record<K, { p50: number; cpuPerCall: number }>> {
  const names = Object.keys(sides) as K[];
  const runs = Object.fromEntries(names.map((k) => [k, [] as { p50: number; cpuPerCall: number }[]])) as Record<
    K,
    { p50: number; cpuPerCall: number }[]
  >;
  for (const k of names) await sequential(sides[k].call, 1, sides[k].cpu);
  for (let round = 0; round < ROUNDS; round++) {
    for (const k of round % 2 === 0 ? names : [...names].reverse())
      runs[k].push(await sequential(sides[k].call, Math.ceil(calls / ROUNDS), sides[k].cpu, 100));
  }
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
  return Object.fromEntries(
    names.map((k) => [k, { p50: median(runs[k].map((r) => r.p50)), cpuPerCall: median(runs[k].map((r) => r.cpuPerCall)) }]),
  ) as Record<K, { p50: number; cpuPerCall: number }>;
}

/** Register the cluster's first account (the setup code is the same on every replica) and sign in through the proxy. */
async function clusterSignIn(cluster: Cluster): Promise<string> {
  // signIn reads the setup code from a data directory: any replica's holds the same code.
  return signIn(cluster.base, cluster.replicas[0].dataDir);
}

interface Failover {
  requests: number;
  failed: number;
  /** Seconds from the kill until a 250 ms window reached half the rate before it (null: never). */
  backAfterSeconds: number | null;
  rateBefore: number;
  rateAfter: number;
  writes: number;
  lostWrites: number;
}

/** 64 calls in flight through the proxy for `seconds`; replica `victim` killed with SIGKILL half-way. */
async function failover(cluster: Cluster, cookie: string, serverId: string, inflight: number, seconds: number): Promise<Failover> {
  const call = apiEcho(cluster.base, cookie, serverId, "fetch");
  const done: number[] = [];
  let failed = 0;
  let requests = 0;
  const written: string[] = [];
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  const killAt = t0 + (seconds * 1000) / 2;
  let killedAt = 0;
  const victim = cluster.replicas[0];
  const killer = (async () => {
    await new Promise((r) => setTimeout(r, killAt - performance.now()));
    killedAt = performance.now();
    await victim.kill("SIGKILL");
  })();
  await Promise.all(
    Array.from({ length: inflight }, async (_, lane) => {
      let n = 0;
      while (performance.now() < end) {
        requests++;
        try {
          if (lane % 8 === 0 && n++ % 8 === 0) {
            const created = await fetch(`${cluster.base}/api/chats`, {
              method: "POST",
              headers: { "content-type": "application/json", cookie },
              body: JSON.stringify({ title: "failover" }),
            });
            if (created.status !== 201) throw new Error(String(created.status));
            written.push(((await created.json()) as { id: string }).id);
          } else await call();
          done.push(performance.now());
        } catch {
          failed++;
        }
      }
    }),
  );
  await killer;
  const windowMs = 250;
  const before = done.filter((t) => t < killedAt && t >= killedAt - 2000).length / 2;
  let backAfterSeconds: number | null = null;
  for (let from = killedAt; from + windowMs <= end; from += windowMs) {
    const rate = done.filter((t) => t >= from && t < from + windowMs).length / (windowMs / 1000);
    if (rate >= before / 2) {
      backAfterSeconds = (from + windowMs - killedAt) / 1000;
      break;
    }
  }
  const after = done.filter((t) => t >= end - 2000).length / 2;
  let lostWrites = 0;
  for (const id of written) {
    const read = await fetch(`${cluster.base}/api/chats/${id}`, { headers: { cookie } });
    if (read.status !== 200) lostWrites++;
  }
  await victim.restart();
  return { requests, failed, backAfterSeconds, rateBefore: before, rateAfter: after, writes: written.length, lostWrites };
}

/** The cluster run (see the module comment). */
export async function clusterMode(args: ClusterArgs): Promise<void> {
  const mcpUrl = await startEverything();
  const llmPort = await freePort();
  start(process.execPath, [path.join(ROOT, "tests/fixtures/llm/scripted-llm.mjs")], { PORT: String(llmPort) });
  await waitFor(`http://127.0.0.1:${llmPort}/requests`, 20_000);
  const appEnv = {
    SWITCHBOARD_LLM_PROVIDER: "openai-compatible",
    SWITCHBOARD_LLM_MODEL: "scripted",
    SWITCHBOARD_LLM_BASE_URL: `http://127.0.0.1:${llmPort}/v1`,
    // Twice the calls in flight, on both sides: a slot a call frees on one replica reaches Redis a
    // moment after its answer, so a client keeping exactly the limit in flight through another
    // replica can be refused for that moment (docs/limits.md).
    SWITCHBOARD_QUOTA_CONCURRENT_CALLS_PER_USER: String(args.inflight * 2),
    SWITCHBOARD_QUOTA_REQUESTS_PER_MINUTE: "1000000",
    SWITCHBOARD_ALLOWED_HOSTS: "127.0.0.1",
  };
  const single = await startApp(appEnv);
  const singleCookie = await signIn(single.base, single.dataDir);
  const singleServer = await createServer(single.base, singleCookie, "everything", { url: mcpUrl, supports_parallel_tool_calls: true });

  const postgres = await startPostgres();
  // One node on Postgres too, beside the goals: what of the gap is the database's, what the cluster's.
  const onPostgres = await startApp({ ...appEnv, DATABASE_URL: await postgres.createDatabase("bench_single") });
  const pgCookie = await signIn(onPostgres.base, onPostgres.dataDir);
  const pgServer = await createServer(onPostgres.base, pgCookie, "everything", { url: mcpUrl, supports_parallel_tool_calls: true });
  const redis = await startRedis();
  const cluster = await startCluster({
    replicas: args.replicas,
    databaseUrl: await postgres.createDatabase("bench_cluster"),
    redisUrl: redis.url,
    env: appEnv,
    // The documented deployment's load balancer, in a process of its own (the tests' proxy would run
    // in the bench's process and share its core with the client).
    front: "nginx",
  });
  try {
    const cookie = await clusterSignIn(cluster);
    const serverId = await createServer(cluster.base, cookie, "everything", { url: mcpUrl, supports_parallel_tool_calls: true });
    const sides = {
      single: { call: apiEcho(single.base, singleCookie, singleServer, "fetch"), cpu: () => treeCpuMs(single.pid) },
      cluster: {
        call: apiEcho(cluster.base, cookie, serverId, "fetch"),
        cpu: () => cluster.replicas.reduce((sum, r) => sum + treeCpuMs(r.process.pid ?? 0), 0),
      },
    };
    const seq = await sequentialRounds(
      { ...sides, postgres: { call: apiEcho(onPostgres.base, pgCookie, pgServer, "fetch"), cpu: () => treeCpuMs(onPostgres.pid) } },
      CALLS,
    );
    const rates: Record<"single" | "cluster", number[]> = { single: [], cluster: [] };
    for (let round = 0; round < 3; round++) {
      for (const side of ["single", "cluster"] as const)
        rates[side].push(await throughput(sides[side].call, THROUGHPUT_CALLS, args.inflight));
    }
    const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
    const tokens = await firstTokens({
      single: { base: single.base, cookie: singleCookie },
      cluster: { base: cluster.base, cookie },
      postgres: { base: onPostgres.base, cookie: pgCookie },
    });
    const fail = await failover(cluster, cookie, serverId, args.inflight, args.seconds);

    const ms = (v: number) => `${v.toFixed(2)} ms`;
    const rows: GoalRow[] = [
      {
        goal: `API tool call p50 (${args.replicas} replicas behind nginx vs one node)`,
        raw: ms(seq.single.p50),
        switchboard: ms(seq.cluster.p50),
        ratio: seq.cluster.p50 / seq.single.p50,
        limit: { max: 1.2 },
      },
      {
        goal: `throughput, ${args.inflight} in flight (calls/s)`,
        raw: median(rates.single).toFixed(0),
        switchboard: median(rates.cluster).toFixed(0),
        ratio: median(rates.cluster) / median(rates.single),
        limit: { min: 0.9 },
      },
      {
        goal: "app CPU per call (the replicas together vs the one node)",
        raw: ms(seq.single.cpuPerCall),
        switchboard: ms(seq.cluster.cpuPerCall),
        ratio: seq.cluster.cpuPerCall / seq.single.cpuPerCall,
        limit: {},
      },
      {
        goal: "chat: first token p50",
        raw: ms(tokens.single),
        switchboard: ms(tokens.cluster),
        ratio: tokens.cluster / tokens.single,
        limit: { max: 1.2 },
      },
      {
        goal: "beside the goals: API tool call p50, one node on Postgres vs the replicas",
        raw: `${ms(seq.postgres.p50)} (one node, Postgres)`,
        switchboard: ms(seq.cluster.p50),
        ratio: seq.cluster.p50 / seq.postgres.p50,
        limit: {},
      },
      {
        goal: "beside the goals: chat first token p50, one node on Postgres vs the replicas",
        raw: `${ms(tokens.postgres)} (one node, Postgres)`,
        switchboard: ms(tokens.cluster),
        ratio: tokens.cluster / tokens.postgres,
        limit: {},
      },
      {
        goal: `failover: failed requests, kill -9 of one replica under ${args.inflight} in flight (%)`,
        raw: "—",
        switchboard: `${fail.failed} of ${fail.requests}`,
        ratio: (100 * fail.failed) / Math.max(1, fail.requests),
        limit: { max: 1 },
      },
      {
        goal: "failover: seconds until throughput is back (half the rate before the kill)",
        raw: `${fail.rateBefore.toFixed(0)} calls/s before`,
        switchboard: `${fail.rateAfter.toFixed(0)} calls/s on the survivor`,
        ratio: fail.backAfterSeconds ?? Number.POSITIVE_INFINITY,
        limit: { max: 5 },
      },
      {
        goal: "failover: acknowledged writes lost",
        raw: "—",
        switchboard: `${fail.lostWrites} of ${fail.writes}`,
        ratio: fail.lostWrites,
        limit: { max: 0 },
      },
    ];
    console.log(
      `\nCluster (${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)} at the end, ${new Date().toISOString().slice(0, 10)}; ` +
        `both sides send through fetch; ${args.replicas} replicas on Postgres + Redis behind nginx (deploy/nginx.conf) vs one node on SQLite; ` +
        `${CALLS} sequential calls after a warm-up per side, throughput the median of three runs of ${THROUGHPUT_CALLS}, the sides interleaved):\n`,
    );
    console.log(goalsTable(rows, ["one node (SQLite)", `${args.replicas} replicas (Postgres + Redis)`]));
  } finally {
    await cluster.stop();
    // The node on Postgres stops before its database does (it gives back its questions as it stops).
    await stopChild(onPostgres.pid);
    await redis.stop();
    await postgres.stop();
  }
}
