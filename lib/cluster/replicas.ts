/**
 * Which replica this process is, and whether another one is alive. Each replica keeps a heartbeat in
 * the coordination (`replica:<id>`, renewed every `HEARTBEAT_MS`, lapsing after `REPLICA_TTL_MS`):
 * work a replica holds for others (a running turn, a question waiting for a user) is given up by
 * the others once its heartbeat lapses. In single-node mode only this process exists.
 */
import { randomBytes } from "node:crypto";
import { replicaIdSetting } from "../env";
import { singleton } from "../singleton";
import { coordination } from "./index";

/** How often a replica renews its heartbeat. */
export const HEARTBEAT_MS = 2_000;
/** How long a heartbeat lasts: a replica that stopped renewing counts as gone this long after. */
export const REPLICA_TTL_MS = 6_000;

/** This process's replica id (`SWITCHBOARD_REPLICA_ID`, which the web server sets; random in other processes). */
export function replicaId(): string {
  return singleton("cluster.replicaId", () => replicaIdSetting() ?? randomBytes(4).toString("hex"));
}

/** Whether replica `id` is alive: this one always; another while its heartbeat lasts. */
export async function replicaAlive(id: string): Promise<boolean> {
  if (id === replicaId()) return true;
  return (await coordination().get(`replica:${id}`)) !== null;
}

/** Start renewing this replica's heartbeat (once per process; the timer never keeps it alive). */
export function startHeartbeat(): void {
  singleton("cluster.heartbeat", () => {
    const beat = () =>
      coordination()
        .put(`replica:${replicaId()}`, String(Date.now()), REPLICA_TTL_MS)
        .catch(() => {});
    void beat();
    const timer = setInterval(beat, HEARTBEAT_MS);
    timer.unref();
    return timer;
  });
}
