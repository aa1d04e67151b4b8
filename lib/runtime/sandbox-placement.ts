/**
 * Where a stdio server's sandbox runs in cluster mode (the engine asks before it starts one:
 * lib/mcp/placement.ts). One replica at a time runs the sandbox of a (user, server), under its lease
 * (lib/runtime/sandbox-leases.ts), so its home image is never mounted by two. A call that lands on
 * another replica is forwarded to the holder over the internal hop (lib/runtime/relay-transport.ts):
 * the lease moves only when the holder lets go (its sandbox idled out or ended, it stopped) or dies
 * (its lease runs out), never because a call landed elsewhere, so requests spread round robin
 * never restart the server. docs/decisions.md says why forwarding and not moving.
 *
 * In single-node mode there is no placement: the engine starts every stdio server here, as before.
 */
import { getDb, type Db } from "../../db/client";
import { leaseHolder } from "../../db/queries/leases";
import { replicaById } from "../../db/queries/replicas";
import { workspaceOfServer } from "../../db/queries/usage-rows";
import { clustered } from "../cluster";
import { clusterControl } from "../cluster/control";
import { replicaAlive, replicaId } from "../cluster/replicas";
import type { ServerDefinition } from "../mcp/config";
import type { ListKind } from "../mcp/discovery";
import { EngineError } from "../mcp/errors";
import type { Placement, StdioPlacement } from "../mcp/placement";
import { hopKey, signHop } from "./internal-hop";
import { RelayTransport } from "./relay-transport";
import { FENCE_MARGIN_MS, SANDBOX_LEASE_MS, type SandboxLeases, sandboxLeaseName, sandboxLeases } from "./sandbox-leases";

/** How often a replica waiting for a gone holder's lease to run out looks again. */
const POLL_MS = 250;
/** Longest a relay waits for an unreachable holder to let go before it fails the request. */
const SETTLE_MS = SANDBOX_LEASE_MS + FENCE_MARGIN_MS;

/** What the placement reads and whom it asks. */
export interface PlacementDeps {
  db: () => Db;
  leases: SandboxLeases;
  self: () => string;
  alive: (replica: string) => Promise<boolean>;
  key: () => Buffer;
  /** Tell the other replicas that a server running here changed a list (their relays list it again). */
  announce?: (change: ListChange) => void;
}

/** A list of a (user, server) changed where its sandbox runs (the `SANDBOX_LIST_CHANGED` order's payload). */
export interface ListChange {
  userId: string;
  serverId: string;
  kind: ListKind;
}

/** The control channel's name for a list change of a server whose sandbox runs on the sender (lib/use-cases/cluster-control.ts applies it). */
export const SANDBOX_LIST_CHANGED = "sandbox.list_changed";

/** The app's placement: in cluster mode only (undefined in single-node mode, where nothing changes). */
export function sandboxPlacement(): StdioPlacement | undefined {
  if (!clustered()) return undefined;
  let key: Buffer | undefined;
  return new SandboxPlacement({
    db: getDb,
    leases: sandboxLeases(),
    self: replicaId,
    alive: replicaAlive,
    key: () => (key ??= hopKey()),
    announce: (change) => void clusterControl().send(SANDBOX_LIST_CHANGED, change),
  });
}

/** Places each stdio server under its lease: here when it is free or ours, else a relay to its holder. */
export class SandboxPlacement implements StdioPlacement {
  constructor(private readonly deps: PlacementDeps) {}

  async place(userId: string, server: ServerDefinition, signal: AbortSignal): Promise<Placement> {
    const { db, leases, alive } = this.deps;
    const name = sandboxLeaseName(userId, server.id);
    for (;;) {
      signal.throwIfAborted();
      const hold = await leases.take(userId, server.id);
      if (hold) return { where: "here", hold };
      const holder = await leaseHolder(db(), name);
      // Given back meanwhile: take it.
      if (!holder) continue;
      if (await alive(holder.owner))
        return { where: "elsewhere", holder: holder.owner, transport: await this.relay(userId, server, holder.owner) };
      // Its holder is gone (no heartbeat) without giving it back: the lease runs out at its time.
      await sleep(Math.min(Math.max(holder.expiresAt.getTime() - Date.now(), 0) + 20, POLL_MS), signal);
    }
  }

  listChanged(userId: string, serverId: string, kind: ListKind): void {
    this.deps.announce?.({ userId, serverId, kind });
  }

  /** A relay to `holder` for (user, server). */
  private async relay(userId: string, server: ServerDefinition, holder: string): Promise<RelayTransport> {
    const { db, self, key } = this.deps;
    const row = await replicaById(db(), holder);
    if (!row?.internalUrl) {
      throw new EngineError(
        "unreachable",
        `server "${server.name}": its sandbox runs on replica ${holder}, which records no internal address; start every replica of this build with SWITCHBOARD_INTERNAL_URL reachable from the others`,
      );
    }
    const workspaceId = await workspaceOfServer(db(), server.id);
    if (!workspaceId) throw new EngineError("not_found", `server "${server.name}" no longer exists`);
    const name = sandboxLeaseName(userId, server.id);
    return new RelayTransport({
      holder: { replica: holder, url: row.internalUrl },
      who: { userId, workspaceId, serverId: server.id, serverName: server.name },
      sign: (to, request) => signHop(key(), to, self(), request),
      settle: (signal) => this.settle(name, holder, signal),
    });
  }

  /** Wait (at most `SETTLE_MS`) until `holder` no longer holds `name`. */
  private async settle(name: string, holder: string, signal: AbortSignal): Promise<"moved" | "held"> {
    const deadline = Date.now() + SETTLE_MS;
    while (Date.now() < deadline && !signal.aborted) {
      const now = await leaseHolder(this.deps.db(), name);
      if (!now || now.owner !== holder || now.expiresAt.getTime() < Date.now()) return "moved";
      await sleep(POLL_MS, signal).catch(() => undefined);
    }
    return "held";
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason ?? new Error("aborted"));
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
