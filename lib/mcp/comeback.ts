/**
 * An HTTP server whose reconnect schedule gave up (`failed`) is not left failed for good: the pool's
 * ping scheduler (health-ping.ts) probes its URL once per ping interval, within the same budget, and
 * once anything answers the entry connects again by itself (docs/limits.md#health-pings). The probe
 * is one plain GET, not a session: a server still away costs one refused request per interval.
 */
import type { FetchLike } from "@modelcontextprotocol/client";
import type { ServerDefinition } from "./config";
import type { HealthPings, Pingable } from "./health-ping";
import type { Clock } from "./clock";
import type { ServerState } from "./types";

/** What the watch needs of a pool entry (ManagedServer has it). */
export interface Returning {
  readonly server: ServerDefinition;
  currentState(): ServerState;
  /** Connect again at once (its failure stays in the entry's status). */
  reconnectNow(): Promise<void>;
}

// Entries probed now: a second give-up while one probe waits adds no second probe.
const watching = new WeakSet<Returning>();

/** Probe `entry`'s URL every ping interval while it stays `failed`; reconnect it once the URL answers. */
export function watchForReturn(options: { health: HealthPings; fetch: FetchLike; clock: Clock }, entry: Returning): void {
  const url = entry.server.config.url;
  if (!url || watching.has(entry)) return;
  watching.add(entry);
  const probe: Pingable = {
    lastActivityAt: options.clock.now(),
    pending: 0,
    get closed() {
      // Connected, closed, disabled or waiting for authorization: nothing to watch for any more.
      const done = entry.currentState() !== "failed";
      if (done) watching.delete(entry);
      return done;
    },
    async ping(timeoutMs) {
      if (await answers(options.fetch, url, timeoutMs)) await entry.reconnectNow();
    },
  };
  options.health.watch(probe, () => watching.delete(entry));
}

/** Whether anything answers at `url` (a gateway's 502–504 speaks for a server still away). */
async function answers(fetch: FetchLike, url: string, timeoutMs: number): Promise<boolean> {
  try {
    const response = await fetch(url, { method: "GET", headers: { accept: "text/event-stream" }, signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return response.status < 502 || response.status > 504;
  } catch {
    return false; // refused, reset, timed out or blocked: still away, probed again next interval
  }
}
