/**
 * The leases of the stdio sandboxes this replica runs (cluster mode, lib/runtime/sandbox-placement.ts):
 * `sandbox:<user>:<server>` in the database's `leases` ([leases](docs/architecture.md#leases)), taken
 * before the sandbox starts, renewed while it runs and given back once it has ended (its home image
 * unmounted with its last process). All of this replica's are renewed in one statement every
 * `SANDBOX_RENEW_MS`. A replica that dies loses them `SANDBOX_LEASE_MS` after its last renewal; one
 * that cannot renew (the database out of reach) stops its sandboxes `FENCE_MARGIN_MS` before its
 * leases could run out, so no other replica mounts a home it still has mounted.
 */
import { getDb, type Db } from "../../db/client";
import { releaseLease, renewLeases, takeLease } from "../../db/queries/leases";
import { replicaId } from "../cluster/replicas";
import type { PlacementHold } from "../mcp/placement";
import { redact } from "../redact";
import { singleton } from "../singleton";
import { describeDatabaseFailure } from "../../db/unavailable";

/** How long a sandbox lease lasts after its last renewal: a dead replica's sandboxes may start elsewhere after this. */
export const SANDBOX_LEASE_MS = 10_000;
/** How often a replica renews its sandbox leases. */
export const SANDBOX_RENEW_MS = 2_500;
/** A lease not renewed by this long before it would run out is given up: its sandbox stops (clocks may differ this much). */
export const FENCE_MARGIN_MS = 2_000;

/** The lease of (user, server)'s sandbox. */
export function sandboxLeaseName(userId: string, serverId: string): string {
  return `sandbox:${userId}:${serverId}`;
}

interface Held {
  /** When the lease runs out, as of its last renewal (this clock). */
  until: number;
  /** Holds given out on it and not released (a connection test beside the pool's connection). */
  holds: number;
  lost: () => void;
  lostPromise: Promise<void>;
}

/** The sandbox leases one replica holds. */
export class SandboxLeases {
  private readonly held = new Map<string, Held>();
  private timer: NodeJS.Timeout | null = null;
  private renewing: Promise<void> | null = null;

  constructor(
    private readonly db: () => Db,
    private readonly owner: () => string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Take (user, server)'s lease: a hold, or null while another replica holds it. */
  async take(userId: string, serverId: string): Promise<PlacementHold | null> {
    const name = sandboxLeaseName(userId, serverId);
    const started = this.now();
    if (!(await takeLease(this.db(), name, this.owner(), SANDBOX_LEASE_MS, new Date(started)))) return null;
    let entry = this.held.get(name);
    if (!entry) {
      let lost!: () => void;
      const lostPromise = new Promise<void>((resolve) => (lost = resolve));
      entry = { until: 0, holds: 0, lost, lostPromise };
      this.held.set(name, entry);
    }
    entry.until = started + SANDBOX_LEASE_MS;
    entry.holds++;
    this.schedule();
    const held = entry;
    let released = false;
    return {
      lost: held.lostPromise,
      release: async () => {
        if (released) return;
        released = true;
        held.holds--;
        // Another hold of this replica still runs it (or it was lost and taken again): keep the lease.
        if (held.holds > 0 || this.held.get(name) !== held) return;
        this.held.delete(name);
        await releaseLease(this.db(), name, this.owner()).catch((error: unknown) =>
          console.warn(`[switchboard] giving back ${name} failed (it runs out by itself):`, redact(describeDatabaseFailure(error))),
        );
      },
    };
  }

  /** Whether this replica holds (user, server)'s lease now. */
  holds(userId: string, serverId: string): boolean {
    const entry = this.held.get(sandboxLeaseName(userId, serverId));
    return entry !== undefined && entry.until - FENCE_MARGIN_MS > this.now();
  }

  /** How many leases this replica holds. */
  get size(): number {
    return this.held.size;
  }

  /** One renewal round (the timer's; tests call it): the leases lost or about to run out unrenewed are given up. */
  async renew(): Promise<void> {
    this.renewing ??= this.round().finally(() => (this.renewing = null));
    await this.renewing;
  }

  private async round(): Promise<void> {
    const names = [...this.held.keys()];
    if (names.length === 0) return;
    const at = this.now();
    try {
      const renewed = new Set(await renewLeases(this.db(), names, this.owner(), SANDBOX_LEASE_MS, new Date(at)));
      for (const name of names) {
        const entry = this.held.get(name);
        if (!entry) continue;
        if (renewed.has(name)) entry.until = at + SANDBOX_LEASE_MS;
        else this.lose(name, entry, "it ran out or another replica holds it");
      }
    } catch (error) {
      // The fence (each tick) stops their sandboxes in time if this goes on.
      console.warn("[switchboard] renewing the sandbox leases failed:", redact(describeDatabaseFailure(error)));
    }
  }

  /**
   * Give up every lease that would run out, less the margin, before the next round could renew it:
   * run on every tick, whether or not the last round answered (a database that hangs stops nothing else).
   */
  fence(): void {
    const now = this.now();
    for (const [name, entry] of this.held) {
      if (entry.until - FENCE_MARGIN_MS - SANDBOX_RENEW_MS <= now) this.lose(name, entry, "it could not be renewed in time");
    }
  }

  private lose(name: string, entry: Held, why: string): void {
    this.held.delete(name);
    console.warn(`[switchboard] lost ${name} (${why}); its sandbox stops`);
    entry.lost();
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.held.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
        return;
      }
      this.fence();
      void this.renew();
    }, SANDBOX_RENEW_MS);
    // Never what keeps the process alive: its sandboxes are closed at shutdown, releasing their leases.
    this.timer.unref();
  }
}

/** This replica's sandbox leases. */
export function sandboxLeases(): SandboxLeases {
  return singleton("runtime.sandboxLeases", () => new SandboxLeases(getDb, replicaId));
}
