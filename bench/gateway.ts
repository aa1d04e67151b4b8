/**
 * `npm run bench -- --gateway [rounds]` (issue 33's goal, docs/performance.md#the-gateway): a tool
 * call from an MCP SDK client through the per-server gateway `/mcp/<slug>/<server>` of the built app
 * against the same client straight to the server, in the same run. Both sides are the SDK v2
 * `Client` on its `StreamableHTTPClientTransport` over the global `fetch`, calling `echo` of the same
 * server-everything; the gateway side adds only its personal access token as `Authorization`. Every
 * side gets the same warm-up (`WARM_UP_CALLS` sequential calls, then `THROUGHPUT_WARM_UP_CALLS` at the
 * concurrency), then each round runs `calls` sequential calls per side and one throughput run per
 * side at `inflight`, the sides taking turns in an order that rotates from round to round. A
 * round's ratios pair figures taken seconds apart, so the machine's drift cancels; the median of
 * the rounds' ratios is the figure, as in bench/usage-api.ts. Beside the goal, the same call through
 * the app's REST API (`POST /api/servers/:id/tools/call`, bench/harness.ts's `apiEcho`, also `fetch`)
 * in the same rotation, to tell what the gateway adds from what any call through the app costs.
 */
import os from "node:os";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { GatewayArgs } from "./args";
import { goalsTable, type GoalRow, sequential, THROUGHPUT_WARM_UP_CALLS, throughput, WARM_UP_CALLS } from "./goals";
import { apiEcho, createServer, serverPidOf, signIn, startApp, startEverything, treeCpuMs } from "./harness";

type Side = "direct" | "gateway" | "api";

/** The sides in the order of round 0; each later round starts one further along. */
const SIDES: Side[] = ["direct", "gateway", "api"];

/** Calls of each throughput run (`BENCH_THROUGHPUT_CALLS`, as for the goals table). */
const THROUGHPUT_CALLS = Number(process.env.BENCH_THROUGHPUT_CALLS ?? 2000);

/** Sequential calls a side makes again at the start of each of its blocks, unmeasured: its sockets and code hot after the other side's turn. */
const BLOCK_WARM_UP = 50;

/** An SDK client connected to `url` (with `token` as the bearer when given): one `echo` call, and the negotiated version. */
async function sdkSide(url: string, token?: string): Promise<{ call: () => Promise<void>; version: string; close: () => Promise<void> }> {
  const client = new Client({ name: "bench-gateway", version: "1" });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    ...(token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : {}),
  });
  await client.connect(transport);
  return {
    call: async () => {
      const result = await client.callTool({ name: "echo", arguments: { message: "bench" } });
      if (result.isError) throw new Error(`echo failed through ${url}: ${JSON.stringify(result.content)}`);
    },
    version: client.getNegotiatedProtocolVersion() ?? "unknown",
    close: () => client.close(),
  };
}

/** JSON from the app's API with the session cookie; throws with the answer when it is not `expected`. */
async function api(base: string, cookie: string, method: string, path: string, body: unknown, expected: number): Promise<unknown> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { "content-type": "application/json", cookie },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (response.status !== expected) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/**
 * The signed-in user's personal workspace made reachable through the gateway as a member would:
 * `echo` set to run without asking (server-everything is untrusted, so its tools ask by default),
 * the server's trifecta check off, and a personal access token with the `mcp` scope.
 */
async function gatewayAccess(base: string, cookie: string, serverId: string): Promise<{ slug: string; token: string }> {
  const workspaces = (await api(base, cookie, "GET", "/api/workspaces", undefined, 200)) as {
    id: string;
    slug: string;
    personal: boolean;
  }[];
  const personal = workspaces.find((workspace) => workspace.personal);
  if (!personal) throw new Error("no personal workspace");
  await api(base, cookie, "PUT", "/api/settings/tool-policies", { serverId, toolName: "echo", policy: "allow" }, 204);
  // And the server's trifecta check off (the Servers page's switch): on one gateway session each
  // call follows the previous one's result, which would otherwise make it ask (docs/gateway.md#the-trifecta-rule).
  await api(base, cookie, "PUT", `/api/servers/${serverId}/trust`, { trifectaCheck: false }, 200);
  const created = (await api(
    base,
    cookie,
    "POST",
    "/api/account/tokens",
    { name: "bench", workspaceId: personal.id, scopes: ["mcp"], expiresInDays: 7 },
    201,
  )) as { secret: string };
  return { slug: personal.slug, token: created.secret };
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** One side's figures of one round. */
interface RoundFigures {
  p50: number;
  p99: number;
  /** The app's CPU per sequential call (ms): the gateway's cost; about nothing on the direct side, where the app is idle. */
  appCpuPerCall: number;
  /** server-everything's CPU per sequential call (ms), the same work on both sides. */
  serverCpuPerCall: number;
  perSecond: number;
}

/** The run (see the module comment). */
export async function gatewayMode(args: GatewayArgs): Promise<void> {
  const mcpUrl = await startEverything();
  // One user with `inflight` calls at once is the throughput figure, not abuse: the default allows 16.
  const app = await startApp({ SWITCHBOARD_QUOTA_CONCURRENT_CALLS_PER_USER: String(args.inflight) });
  const cookie = await signIn(app.base, app.dataDir);
  const serverId = await createServer(app.base, cookie, "everything", { url: mcpUrl, supports_parallel_tool_calls: true });
  const { slug, token } = await gatewayAccess(app.base, cookie, serverId);
  const direct = await sdkSide(mcpUrl);
  const gateway = await sdkSide(`${app.base}/mcp/${slug}/everything`, token);
  const sides: Record<Side, { call: () => Promise<void> }> = {
    direct,
    gateway,
    api: { call: apiEcho(app.base, cookie, serverId, "fetch") },
  };
  const appCpu = () => treeCpuMs(app.pid);
  const serverPid = serverPidOf(mcpUrl);
  const serverCpu = () => treeCpuMs(serverPid);

  // The same warm-up for every side: a long-running server is measured hot, not while V8 compiles.
  for (const side of SIDES) {
    await sequential(sides[side].call, 1, appCpu, WARM_UP_CALLS);
    await throughput(sides[side].call, THROUGHPUT_WARM_UP_CALLS, args.inflight);
  }
  const rounds: Record<Side, RoundFigures[]> = { direct: [], gateway: [], api: [] };
  for (let round = 0; round < args.rounds; round++) {
    // Each side first, second and last equally often over three rounds; throughput in the reverse order.
    const order = SIDES.map((_, i) => SIDES[(i + round) % SIDES.length]);
    const figures = {} as Record<Side, RoundFigures>;
    for (const side of order) {
      const server0 = serverCpu();
      const seq = await sequential(sides[side].call, args.calls, appCpu, BLOCK_WARM_UP);
      const serverCpuPerCall = (serverCpu() - server0) / (args.calls + BLOCK_WARM_UP);
      figures[side] = { p50: seq.p50, p99: seq.p99, appCpuPerCall: seq.cpuPerCall, serverCpuPerCall, perSecond: 0 };
    }
    for (const side of [...order].reverse()) figures[side].perSecond = await throughput(sides[side].call, THROUGHPUT_CALLS, args.inflight);
    for (const side of order) rounds[side].push(figures[side]);
  }
  await direct.close();
  await gateway.close();

  const of = (side: Side, key: keyof RoundFigures) => median(rounds[side].map((r) => r[key]));
  const ratio = (key: "p50" | "perSecond", side: Side = "gateway") => median(rounds[side].map((r, i) => r[key] / rounds.direct[i][key]));
  const ms = (v: number) => `${v.toFixed(2)} ms`;
  const rows: GoalRow[] = [
    {
      goal: "tool call p50 (sequential)",
      raw: ms(of("direct", "p50")),
      switchboard: ms(of("gateway", "p50")),
      ratio: ratio("p50"),
      limit: { max: 1.5 },
    },
    {
      goal: `throughput, ${args.inflight} in flight (calls/s)`,
      raw: of("direct", "perSecond").toFixed(0),
      switchboard: of("gateway", "perSecond").toFixed(0),
      ratio: ratio("perSecond"),
      limit: { min: 0.7 },
    },
    {
      goal: "beside: p50 of the same call through the app's REST API",
      raw: ms(of("direct", "p50")),
      switchboard: `${ms(of("api", "p50"))} (API)`,
      ratio: ratio("p50", "api"),
      limit: {},
    },
    {
      goal: `beside: throughput through the REST API, ${args.inflight} in flight (calls/s)`,
      raw: of("direct", "perSecond").toFixed(0),
      switchboard: `${of("api", "perSecond").toFixed(0)} (API)`,
      ratio: ratio("perSecond", "api"),
      limit: {},
    },
  ];
  console.log(
    `\nThe gateway (${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)} at the end, ${new Date().toISOString().slice(0, 10)}; ` +
      `the SDK v2 client over fetch on both sides, protocol ${direct.version} direct and ${gateway.version} through the gateway; ` +
      `the built app on SQLite; warm-up ${WARM_UP_CALLS} sequential calls then ${THROUGHPUT_WARM_UP_CALLS} at ${args.inflight} in flight, per side; ` +
      `${args.rounds} rounds of ${args.calls} sequential calls and one run of ${THROUGHPUT_CALLS} at ${args.inflight} in flight per side, ` +
      `the sides taking turns in a rotating order; each ratio the median of the rounds' ratios):\n`,
  );
  console.log(goalsTable(rows, ["SDK client → server", "SDK client → gateway → server"]));
  console.log(
    `\np99: direct ${ms(of("direct", "p99"))}, through the gateway ${ms(of("gateway", "p99"))}, through the REST API ${ms(of("api", "p99"))}; ` +
      `the app's CPU per sequential call ${ms(of("gateway", "appCpuPerCall"))} through the gateway, ${ms(of("api", "appCpuPerCall"))} through the REST API ` +
      `(${ms(of("direct", "appCpuPerCall"))} while idle beside the direct calls); server-everything's ${ms(of("direct", "serverCpuPerCall"))} direct, ` +
      `${ms(of("gateway", "serverCpuPerCall"))} through the gateway, ${ms(of("api", "serverCpuPerCall"))} through the REST API`,
  );
  for (const side of SIDES) {
    console.log(
      `  ${side.padEnd(7)} per round: p50 ${rounds[side].map((r) => r.p50.toFixed(2)).join(", ")} ms; ` +
        `calls/s ${rounds[side].map((r) => r.perSecond.toFixed(0)).join(", ")}`,
    );
  }
}
