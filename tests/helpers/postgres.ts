/**
 * A throw-away Postgres cluster for tests: `initdb` under a temp dir, `pg_ctl` on a free loopback port
 * (trust auth for 127.0.0.1 only, no Unix socket, fsync off), stopped and deleted at teardown. No
 * system service is involved. As root, the cluster runs as `nobody` (initdb refuses root).
 */
import { execFile, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { freePort } from "./ports";

const run = promisify(execFile);

/** The unprivileged account a root test process runs the cluster as. */
const CLUSTER_USER = "nobody";

/** A running throw-away cluster. */
export interface TestPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`. */
  url: string;
  port: number;
  /** Milliseconds from `initdb` to accepting connections (docs/testing.md quotes it). */
  startMs: number;
  /** A new empty database in this cluster; returns its URL. */
  createDatabase(name: string): Promise<string>;
  /** Shut the server down cleanly (a fast shutdown: every commit kept), keeping its data and port. */
  pause(): Promise<void>;
  /** Start the paused server again on the same port. */
  resume(): Promise<void>;
  /** Stop the server and delete its directory. */
  stop(): Promise<void>;
}

function hasTools(dir: string): boolean {
  return ["initdb", "pg_ctl", "postgres"].every((tool) => fs.existsSync(path.join(dir, tool)));
}

/** The directory holding initdb and pg_ctl: `pg_config --bindir`, Debian's versioned dirs (newest first), /usr/local/bin. */
export function postgresBinDir(): string {
  const candidates: string[] = [];
  const pgConfig = spawnSync("pg_config", ["--bindir"], { encoding: "utf8" });
  if (pgConfig.status === 0) candidates.push(pgConfig.stdout.trim());
  const debian = "/usr/lib/postgresql";
  if (fs.existsSync(debian)) {
    const versions = fs.readdirSync(debian).filter((v) => /^\d+$/.test(v));
    versions.sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => path.join(debian, v, "bin")));
  }
  candidates.push("/usr/local/bin");
  const found = candidates.find(hasTools);
  if (!found)
    throw new Error(
      `no Postgres server binaries (initdb, pg_ctl) in ${candidates.join(", ")}: install Debian's postgresql (apt-get install -y postgresql; .ci/run does it as root)`,
    );
  return found;
}

const isRoot = () => process.getuid?.() === 0;

/** argv for `tool` run as the cluster's owner: directly, or through runuser/setpriv as root. */
function asOwner(bin: string, tool: string, args: string[]): [string, string[]] {
  const file = path.join(bin, tool);
  if (!isRoot()) return [file, args];
  if (fs.existsSync("/usr/sbin/runuser")) return ["/usr/sbin/runuser", ["-u", CLUSTER_USER, "--", file, ...args]];
  const { uid, gid } = userIds(CLUSTER_USER);
  return ["setpriv", [`--reuid=${uid}`, `--regid=${gid}`, "--clear-groups", file, ...args]];
}

async function runAsOwner(bin: string, tool: string, args: string[], cwd: string): Promise<void> {
  const [file, argv] = asOwner(bin, tool, args);
  try {
    await run(file, argv, { cwd, env: { ...process.env, LC_ALL: "C", LANG: "C" } });
  } catch (error) {
    const e = error as { stderr?: string; message: string };
    throw new Error(`${tool} failed: ${e.stderr?.trim() || e.message}`);
  }
}

function stopSync(bin: string, data: string, dir: string): void {
  const [file, argv] = asOwner(bin, "pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
  spawnSync(file, argv, { cwd: dir, stdio: "ignore" });
  fs.rmSync(dir, { recursive: true, force: true });
}

// Fast and private: no durability (a test cluster dies with its test), small memory, loopback only.
const SETTINGS = [
  "listen_addresses = '127.0.0.1'",
  "unix_socket_directories = ''",
  "fsync = off",
  "synchronous_commit = off",
  "full_page_writes = off",
  "shared_buffers = 32MB",
  "max_connections = 200",
];

/**
 * Start a throw-away cluster (a few seconds); call `stop()` in the test's teardown. `port` fixes the
 * port (the browser suite's cluster, whose URL playwright.config.ts hands the app before it starts);
 * by default a free one is picked.
 */
export async function startPostgres(options: { port?: number } = {}): Promise<TestPostgres> {
  const bin = postgresBinDir();
  const started = Date.now();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-pg-"));
  const data = path.join(dir, "data");
  if (isRoot()) {
    const { uid, gid } = userIds(CLUSTER_USER);
    fs.chownSync(dir, uid, gid);
  }
  try {
    await runAsOwner(bin, "initdb", ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"], dir);
    // Only TCP from 127.0.0.1 is trusted (no socket, nothing else listed).
    fs.writeFileSync(path.join(data, "pg_hba.conf"), "host all all 127.0.0.1/32 trust\n");
    let port = 0;
    for (let attempt = 1; ; attempt++) {
      port = options.port ?? (await freePort());
      fs.writeFileSync(path.join(data, "postgresql.auto.conf"), [...SETTINGS, `port = ${port}`, ""].join("\n"));
      try {
        await runAsOwner(bin, "pg_ctl", ["-D", data, "-l", path.join(dir, "server.log"), "-w", "-t", "60", "start"], dir);
        break;
      } catch (error) {
        // Another process took the port between freePort and the bind: try another one.
        if (attempt >= 3 || options.port) throw new Error(`${(error as Error).message}\n${readLog(dir)}`);
      }
    }
    const exitHook = () => stopSync(bin, data, dir);
    process.once("exit", exitHook);
    const base = `postgres://postgres@127.0.0.1:${port}`;
    return {
      url: `${base}/postgres`,
      port,
      startMs: Date.now() - started,
      async createDatabase(name) {
        if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
        const client = new pg.Client({ connectionString: `${base}/postgres` });
        await client.connect();
        try {
          await client.query(`create database ${name}`);
        } finally {
          await client.end();
        }
        return `${base}/${name}`;
      },
      async pause() {
        await runAsOwner(bin, "pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"], dir);
      },
      async resume() {
        await runAsOwner(bin, "pg_ctl", ["-D", data, "-l", path.join(dir, "server.log"), "-w", "-t", "60", "start"], dir);
      },
      async stop() {
        process.removeListener("exit", exitHook);
        await runAsOwner(bin, "pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"], dir).catch(() => {});
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    stopSync(bin, data, dir);
    throw error;
  }
}

function readLog(dir: string): string {
  try {
    return fs.readFileSync(path.join(dir, "server.log"), "utf8").slice(-2000);
  } catch {
    return "";
  }
}

function userIds(name: string): { uid: number; gid: number } {
  const line = fs
    .readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((l) => l.startsWith(`${name}:`));
  if (!line) throw new Error(`no user ${name} to run the test cluster as (initdb refuses root)`);
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}
