/**
 * The arguments of `npm run bench` (bench/tool-call.ts): which run, and the client the bench calls
 * the API with. Parsed apart from the runs so that a mistyped figure fails at once with a message,
 * not after minutes of set-up (tests/unit/bench/args.test.ts).
 */

/** How the bench sends its HTTP requests to the app: undici's `fetch`, or `node:http` on kept-alive sockets. */
export type BenchClient = "fetch" | "node-http";

/**
 * Which database: for the goals run, SQLite (the default) or SQLite and Postgres side by side; for the
 * load and crowd modes, the one database their app runs on.
 */
export type BenchDb = "sqlite" | "postgres";

/**
 * The goals table (the default run); `client: "both"` adds Switchboard called through `node:http`;
 * `db: "postgres"` adds the tool call with a second app on Postgres against the one on SQLite.
 */
export interface GoalsArgs {
  mode: "goals";
  client: BenchClient | "both";
  db: BenchDb;
}

/** `--load UxS`: C calls in flight in all, spread at random over the U×S (user, server) pairs. */
export interface SpreadLoadArgs {
  mode: "load";
  users: number;
  servers: number;
  inflight: number;
  seconds: number;
  client: BenchClient;
  /** The app's database (`--db postgres`: a throw-away cluster on loopback). */
  db: BenchDb;
}

/**
 * `--users U --servers S`: every user active, C calls in flight per user (each on its own servers
 * in turn), beside a run of the first `baselineUsers` users alone on the same instance.
 */
export interface CrowdLoadArgs {
  mode: "crowd";
  users: number;
  servers: number;
  inflightPerUser: number;
  seconds: number;
  baselineUsers: number;
  /** `SWITCHBOARD_MCP_IDLE_MINUTES` of the app, so the connections idle out after the load. */
  idleMinutes: number;
  client: BenchClient;
  /** The app's database (`--db postgres`: a throw-away cluster on loopback). */
  db: BenchDb;
  /** With a directory: CPU profiles of both phases and the heap profile of the connections, written there. */
  profileDir?: string;
}

/**
 * `--cluster N`: the tool call and a chat turn's first token through the round-robin proxy to N
 * replicas on Postgres + Redis against one single-node instance on SQLite, and a failover under load.
 */
export interface ClusterArgs {
  mode: "cluster";
  replicas: number;
  inflight: number;
  /** How long the failover run lasts, the kill half-way. */
  seconds: number;
}

/**
 * `--usage R`: what recording usage adds to the API tool call (bench/usage-api.ts): nodes identical
 * but for `SWITCHBOARD_USAGE_RECORDING`, R rounds of `calls` sequential calls each, then the Usage
 * page over `seeded` recorded calls.
 */
export interface UsageArgs {
  mode: "usage";
  rounds: number;
  calls: number;
  seeded: number;
}

/**
 * `--gateway R`: a tool call from the SDK client through the per-server gateway `/mcp/<slug>/<server>`
 * against the same client straight to the server (bench/gateway.ts): R rounds, each of `calls`
 * sequential calls and one throughput run at `inflight` per side, the sides taking turns.
 */
export interface GatewayArgs {
  mode: "gateway";
  rounds: number;
  calls: number;
  inflight: number;
}

/** One of the bench's runs. */
export type BenchArgs = GoalsArgs | SpreadLoadArgs | CrowdLoadArgs | ClusterArgs | UsageArgs | GatewayArgs;

const FLAGS = new Set([
  "cluster",
  "load",
  "users",
  "servers",
  "inflight",
  "seconds",
  "client",
  "baseline",
  "idle-minutes",
  "profile",
  "db",
  "usage",
  "calls",
  "seeded",
  "gateway",
]);

/** `argv` (after the script's path) as one of the runs; throws a message naming the bad argument. */
export function parseBenchArgs(argv: string[]): BenchArgs {
  const given = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i];
    if (!name.startsWith("--") || !FLAGS.has(name.slice(2))) throw new Error(`unknown bench argument ${name}`);
    const value = argv[i + 1];
    if (value === undefined || value.startsWith("--")) throw new Error(`${name} needs a value`);
    given.set(name.slice(2), value);
  }
  const number = (name: string, fallback: number, { min = 1, integer = true } = {}) => {
    const raw = given.get(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < min || (integer && !Number.isInteger(value)))
      throw new Error(`--${name} takes ${integer ? "a whole number" : "a number"} of at least ${min}, not ${raw}`);
    return value;
  };
  const client = (allowBoth: boolean, fallback: BenchClient) => {
    const raw = given.get("client") ?? fallback;
    if (raw === "fetch" || raw === "node-http" || (allowBoth && raw === "both")) return raw;
    throw new Error(`--client takes fetch or node-http${allowBoth ? " or both" : ""}, not ${raw}`);
  };
  const only = (mode: string, allowed: string[]) => {
    for (const name of given.keys()) if (!allowed.includes(name)) throw new Error(`--${name} does not apply to ${mode}`);
  };
  const db = (): BenchDb => {
    const raw = given.get("db") ?? "sqlite";
    if (raw !== "sqlite" && raw !== "postgres") throw new Error(`--db takes sqlite or postgres, not ${raw}`);
    return raw;
  };
  if (given.has("usage")) {
    only("--usage", ["usage", "calls", "seeded"]);
    return { mode: "usage", rounds: number("usage", 12), calls: number("calls", 2000), seeded: number("seeded", 1_000_000) };
  }
  if (given.has("gateway")) {
    only("--gateway", ["gateway", "calls", "inflight"]);
    return { mode: "gateway", rounds: number("gateway", 6), calls: number("calls", 500), inflight: number("inflight", 64) };
  }
  if (given.has("cluster")) {
    only("--cluster", ["cluster", "inflight", "seconds"]);
    const replicas = number("cluster", 2);
    if (replicas < 2) throw new Error("--cluster takes at least 2 replicas");
    return { mode: "cluster", replicas, inflight: number("inflight", 64), seconds: number("seconds", 12, { min: 6 }) };
  }
  if (given.has("load")) {
    only("--load", ["load", "inflight", "seconds", "client", "db"]);
    const match = /^(\d+)x(\d+)$/.exec(given.get("load")!);
    if (!match || !Number(match[1]) || !Number(match[2])) throw new Error("--load takes UxS, e.g. 1000x3");
    return {
      mode: "load",
      users: Number(match[1]),
      servers: Number(match[2]),
      inflight: number("inflight", 64),
      seconds: number("seconds", 30),
      // The cheaper client: the load figures compare the app with itself, and the bench shares the cores.
      client: client(false, "node-http") as BenchClient,
      db: db(),
    };
  }
  if (given.has("users") || given.has("servers")) {
    only("--users", ["users", "servers", "inflight", "seconds", "client", "baseline", "idle-minutes", "profile", "db"]);
    const users = number("users", 1000);
    const baselineUsers = number("baseline", Math.min(64, users));
    if (baselineUsers > users) throw new Error(`--baseline (${baselineUsers}) cannot exceed --users (${users})`);
    return {
      mode: "crowd",
      users,
      servers: number("servers", 3),
      inflightPerUser: number("inflight", 1),
      seconds: number("seconds", 30),
      baselineUsers,
      idleMinutes: number("idle-minutes", 5, { min: 0.1, integer: false }),
      client: client(false, "node-http") as BenchClient,
      db: db(),
      ...(given.has("profile") ? { profileDir: given.get("profile") } : {}),
    };
  }
  only("the goals run", ["client", "db"]);
  return { mode: "goals", client: client(true, "fetch"), db: db() };
}
