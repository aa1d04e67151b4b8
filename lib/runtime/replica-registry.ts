/**
 * This app server's row in the replica registry (db/queries/replicas.ts). At start it joins: a second
 * server on the same database without `REDIS_URL`, a single-node server beside a cluster, or a server
 * of another build is refused with one line naming the fix (docs/deployment.md#cluster-mode). While it
 * runs it renews its heartbeat; at a signal's shutdown it leaves. The admin area lists the rows.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { getDb } from "../../db/client";
import { joinReplicas, leaveReplicas, listReplicas, type ReplicaRow, renewReplica } from "../../db/queries/replicas";
import { clustered } from "../cluster";
import { replicaId } from "../cluster/replicas";
import { onShutdown } from "../shutdown";
import { internalUrl } from "./internal-hop";
import { singleton } from "../singleton";

/** How often a replica renews its row. */
export const REGISTRY_HEARTBEAT_MS = 5_000;
/** A row not renewed for this long belongs to a process that is gone. */
export const REGISTRY_LIVE_MS = 15_000;

/** The build this process runs: the package version and Next's build id ("dev" without a build). */
export function buildVersion(): string {
  const root = process.cwd();
  const read = (file: string) => {
    try {
      return fs.readFileSync(path.join(/*turbopackIgnore: true*/ root, file), "utf8").trim();
    } catch {
      return null;
    }
  };
  const version = (JSON.parse(read("package.json") ?? "{}") as { version?: string }).version ?? "0";
  return `${version}+${read(".next/BUILD_ID") ?? "dev"}`;
}

/** Whether process `pid` of this host still runs. */
function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The others that really run: a row of this host whose process is gone, or that carries this very
 * process id (an earlier start of this server, killed, in a container whose pids repeat), is a
 * process that died before its heartbeat lapsed, and must not block a restart.
 */
export function runningOthers(self: ReplicaRow, others: ReplicaRow[], alive: (pid: number) => boolean = pidAlive): ReplicaRow[] {
  return others.filter((other) => other.host !== self.host || (other.pid !== self.pid && alive(other.pid)));
}

/** Why `self` may not join beside `others` (already filtered to the running ones), or null. */
export function refusal(self: ReplicaRow, others: ReplicaRow[]): string | null {
  const name = (r: ReplicaRow) => `replica ${r.id} on ${r.host} (started ${r.startedAt.toISOString()})`;
  const fix = "docs/deployment.md#cluster-mode";
  const other = others[0];
  if (!other) return null;
  if (!self.clustered)
    return `another app server runs on this database: ${name(other)}. Several replicas need cluster mode: set the same REDIS_URL on every one (${fix}), or stop the other first.`;
  const single = others.find((r) => !r.clustered);
  if (single)
    return `${name(single)} runs on this database without REDIS_URL: stop it, or give it the same REDIS_URL, before starting replicas in cluster mode (${fix}).`;
  const mismatch = others.find((r) => r.version !== self.version);
  if (mismatch)
    return `${name(mismatch)} runs build ${mismatch.version}, this server is build ${self.version}: every replica of an instance runs the same build (${fix}).`;
  return null;
}

/** Join the registry or throw an error whose message is the one line to print; then keep the row fresh. */
export async function joinInstance(): Promise<void> {
  // Before the database opens: the shutdown hooks run in the order they were first registered, and
  // this row must go before the database closes.
  onShutdown("replica-registry", leaveInstance);
  const db = getDb();
  const now = new Date();
  const self: ReplicaRow = {
    id: replicaId(),
    host: os.hostname(),
    pid: process.pid,
    version: buildVersion(),
    clustered: clustered(),
    startedAt: now,
    heartbeatAt: now,
    // Cluster mode: where the others forward calls to the stdio sandboxes this one runs.
    internalUrl: clustered() ? internalUrl() : null,
  };
  let reason: string | null = null;
  await joinReplicas(db, self, new Date(now.getTime() - REGISTRY_LIVE_MS), (others) => {
    reason = refusal(self, runningOthers(self, others));
    return reason === null;
  });
  if (reason) throw new Error(reason);
  singleton("runtime.replicaHeartbeat", () => {
    const timer = setInterval(() => {
      void renewReplica(db, self.id, new Date())
        .then((renewed) => (renewed ? undefined : joinReplicas(db, { ...self, heartbeatAt: new Date() }, new Date(0), () => true)))
        .catch((error: unknown) => console.warn(`replica heartbeat: ${String((error as Error)?.message ?? error)}`));
    }, REGISTRY_HEARTBEAT_MS);
    timer.unref();
    return timer;
  });
}

/** Leave the registry (a signal's shutdown). */
async function leaveInstance(): Promise<void> {
  const timer = singleton<NodeJS.Timeout | null>("runtime.replicaHeartbeat", () => null);
  if (timer) clearInterval(timer);
  await leaveReplicas(getDb(), replicaId()).catch(() => {});
}

/** One replica as the admin area shows it. */
export interface ReplicaView {
  id: string;
  host: string;
  version: string;
  clustered: boolean;
  startedAt: string;
  heartbeatAt: string;
  /** Whether its heartbeat is recent. */
  live: boolean;
  /** Whether it is the replica answering this request. */
  self: boolean;
}

/** The registry's rows for the admin area, with which are live. */
export async function replicaViews(): Promise<ReplicaView[]> {
  const now = Date.now();
  return (await listReplicas(getDb())).map((row) => ({
    id: row.id,
    host: row.host,
    version: row.version,
    clustered: row.clustered,
    startedAt: row.startedAt.toISOString(),
    heartbeatAt: row.heartbeatAt.toISOString(),
    live: now - row.heartbeatAt.getTime() < REGISTRY_LIVE_MS,
    self: row.id === replicaId(),
  }));
}
