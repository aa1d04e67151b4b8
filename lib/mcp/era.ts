/**
 * Protocol era per server (MCP 2026-07-28 vs the 2025-11-25 `initialize` family). The engine
 * negotiates in `auto` mode: a `server/discover` probe, the legacy handshake when the server does
 * not speak the modern era. A legacy verdict is remembered per endpoint (lib/mcp/config-hash.ts
 * `endpointHash`) for a while so that reconnects, other users, other names of the same server and
 * other pools of the process skip the extra round trip (a request the server also pays for); a
 * modern probe is itself the discovery, so there is nothing to save by caching it (and its result
 * may be private to one user).
 */
import type { PriorDiscovery } from "@modelcontextprotocol/client";
import { singleton } from "../singleton";
import { realClock, type Clock } from "./clock";

/** How long a legacy verdict is trusted before the server is probed again (it may have upgraded). */
export const LEGACY_VERDICT_TTL_MS = 6 * 60 * 60_000;

/** Probe bound on stdio: some 2025 servers never answer an unknown request sent before `initialize`. */
export const STDIO_PROBE_TIMEOUT_MS = 5_000;

/** The era a connection landed on. */
export type Era = "modern" | "legacy";

/** Legacy verdicts by server config hash. */
export class EraCache {
  private readonly legacyUntil = new Map<string, number>();

  constructor(private readonly clock: Clock) {}

  /** What to pass as `connect(…, { prior })` for this config: a known legacy server skips the probe. */
  prior(configHash: string): PriorDiscovery | undefined {
    const until = this.legacyUntil.get(configHash);
    if (until === undefined) return undefined;
    if (until > this.clock.now()) return { kind: "legacy" };
    this.legacyUntil.delete(configHash);
    return undefined;
  }

  /** Record where a connection landed. */
  remember(configHash: string, era: Era | undefined): void {
    if (era === "legacy") this.legacyUntil.set(configHash, this.clock.now() + LEGACY_VERDICT_TTL_MS);
    else this.legacyUntil.delete(configHash);
  }

  /** Forget a verdict (a failed connect probes again next time). */
  forget(configHash: string): void {
    this.legacyUntil.delete(configHash);
  }
}

/**
 * The verdicts a pool uses: on the real clock, the process's one cache (the app's pool and its
 * isolated connection tests, the command line and the benches share what they learnt about an
 * endpoint); a pool on an injected clock gets its own, since expiry is read on that clock.
 */
export function erasFor(clock: Clock): EraCache {
  return clock === realClock ? singleton(ERAS_SLOT, () => new EraCache(realClock)) : new EraCache(clock);
}

const ERAS_SLOT = "mcp.eras";
