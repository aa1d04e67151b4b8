/**
 * The replica registry across real processes on one database (lib/runtime/replica-registry.ts): a
 * second server without cluster mode is refused with the line naming REDIS_URL; cluster-mode
 * servers join side by side, but not beside a single-node one; a server killed with SIGKILL does
 * not block its own restart on the same host; a stopped server leaves the registry.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { listReplicas } from "@/db/queries/replicas";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";

const CHILD = path.join("tests", "fixtures", "cluster", "join-process.ts");

let dir: string;
const running: ChildProcess[] = [];

beforeAll(async () => {
  dir = useTempDataDir();
  await getDb(); // migrated before the children open it
});
afterEach(async () => {
  await Promise.all(running.splice(0).map(stop));
});
afterAll(() => removeTempDataDir(dir));

interface Started {
  proc: ChildProcess;
  /** `joined`, or `refused: …`. */
  outcome: string;
}

/** Start a server's registry step as replica `id`; resolves with what it printed first. */
function start(id: string, env: Record<string, string | undefined> = {}): Promise<Started> {
  // tsx as a loader, not its CLI: the CLI runs the script in a grandchild a SIGKILL would not reach.
  const proc = spawn(process.execPath, ["--import", "tsx", CHILD], {
    env: { ...process.env, SWITCHBOARD_REPLICA_ID: id, REDIS_URL: undefined, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.push(proc);
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    proc.stdout?.on("data", (chunk) => {
      out += chunk;
      const line = out.split("\n").find((l) => l === "joined" || l.startsWith("refused: "));
      if (line) resolve({ proc, outcome: line });
    });
    proc.stderr?.on("data", (chunk) => {
      err += chunk;
    });
    proc.on("exit", (code) => reject(new Error(`exited ${code} before joining: ${out}${err}`)));
  });
}

/** SIGTERM and wait for the exit. */
async function stop(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((resolve) => proc.once("exit", resolve));
  proc.kill("SIGTERM");
  await exited;
}

const ids = async () => (await listReplicas(getDb())).map((r) => r.id).sort();

describe("the replica registry", () => {
  it("refuses a second single-node server on the same database, naming REDIS_URL", async () => {
    expect((await start("first")).outcome).toBe("joined");
    const second = await start("second");
    expect(second.outcome).toMatch(
      /^refused: another app server runs on this database: replica first on .*set the same REDIS_URL on every one/,
    );
    expect(await ids()).toEqual(["first"]);
  });

  it("lets cluster-mode servers join side by side, and refuses one beside a single-node server", async () => {
    const redis = { REDIS_URL: "redis://127.0.0.1:1" }; // the registry step reads the setting only
    expect((await start("a", redis)).outcome).toBe("joined");
    expect((await start("b", redis)).outcome).toBe("joined");
    expect(await ids()).toEqual(["a", "b"]);
    await Promise.all(running.splice(0).map(stop));

    expect((await start("single")).outcome).toBe("joined");
    expect((await start("c", redis)).outcome).toMatch(/^refused: replica single on .* runs on this database without REDIS_URL/);
  });

  it("a server killed with SIGKILL does not block its restart; a stopped one leaves", async () => {
    const killed = await start("crashed");
    expect(killed.outcome).toBe("joined");
    const gone = new Promise((resolve) => killed.proc.once("exit", resolve));
    killed.proc.kill("SIGKILL");
    await gone;
    expect(await ids()).toEqual(["crashed"]); // its row stays until its heartbeat lapses…
    const restarted = await start("restarted");
    expect(restarted.outcome).toBe("joined"); // …but its process is gone, on this host
    await stop(restarted.proc);
    expect(await ids()).toEqual(["crashed"]);
  });
});
