/** The replica list of the admin area (docs/deployment.md#cluster-mode). */
import "server-only";
import { clustered } from "../cluster";
import { type ReplicaView, replicaViews } from "../runtime/replica-registry";

/** Every registered replica and whether this instance runs in cluster mode. */
export async function instanceReplicas(): Promise<{ clustered: boolean; replicas: ReplicaView[] }> {
  return { clustered: clustered(), replicas: await replicaViews() };
}
