/**
 * The "hostile neighbour" figure of `npm run bench`: a well-behaved user's tool-call latency
 * through the API, measured alone and again while another user's hostile servers run (a 60 MB
 * tool list fetched again and again, a `retry: 0` reconnect storm, a notification flood), from
 * the fixtures in tests/fixtures/mcp. The hostile user's reconnects past the reconnect quota are
 * answered 429 (counted by status), as they would be in production.
 */

/** What the figure needs from the main bench. */
export interface NeighbourBench {
  base: string;
  /** Session cookie of a second, hostile user. */
  hostileCookie: string;
  /** URL of the hostile HTTP fixture (`http://127.0.0.1:<port>`). */
  hostileBase: string;
  /** One well-behaved call; resolves when it finished. */
  goodCall: () => Promise<void>;
  calls: number;
  /**
   * The app process's CPU time so far in ms (user + system), when the caller can read it. Latency
   * on a busy shared machine swings with everyone else's load; CPU time spent per good call, alone
   * and with the hostile neighbour, does much less.
   */
  appCpuMs?: () => number;
  /**
   * How fast the hostile user sends requests. Default 600 per minute: the default per-user request
   * quota (`SWITCHBOARD_QUOTA_REQUESTS_PER_MINUTE`), which the bench lifts for everyone so that the
   * well-behaved user's 300 calls are not refused; a hostile user above it would get cheap 429s.
   */
  hostileRequestsPerMinute?: number;
  /** Which hostile servers the neighbour runs (fixture modes); default all three. */
  modes?: string[];
}

/** Latency percentiles of `calls` sequential good calls, and the app's CPU ms per call when known. */
export interface Latency {
  p50: number;
  p99: number;
  appCpuMsPerCall?: number;
}

async function latency(call: () => Promise<void>, calls: number, appCpuMs?: () => number): Promise<Latency> {
  for (let i = 0; i < 20; i++) await call();
  const cpuBefore = appCpuMs?.();
  const samples: number[] = [];
  for (let i = 0; i < calls; i++) {
    const t0 = performance.now();
    await call();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  const at = (p: number) => samples[Math.min(samples.length - 1, Math.floor((p / 100) * samples.length))];
  const cpuAfter = appCpuMs?.();
  const appCpuMsPerCall = cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / calls;
  return { p50: at(50), p99: at(99), ...(appCpuMsPerCall === undefined ? {} : { appCpuMsPerCall }) };
}

/** Measure alone, then with the hostile user's servers running; returns both and what the hostile side did. */
export async function hostileNeighbour(
  bench: NeighbourBench,
): Promise<{ alone: Latency; withHostile: Latency; hostileRequests: Record<string, number> }> {
  const alone = await latency(bench.goodCall, bench.calls, bench.appCpuMs);
  const headers = { "content-type": "application/json", cookie: bench.hostileCookie };
  const ids: string[] = [];
  for (const mode of bench.modes ?? ["big-list", "retry0", "flood"]) {
    const created = await fetch(`${bench.base}/api/servers`, {
      method: "POST",
      headers,
      body: JSON.stringify({ name: mode.replace("-", "_"), config: { url: `${bench.hostileBase}/mcp/${mode}` } }),
    });
    ids.push(((await created.json()) as { id: string }).id);
  }
  const hostileRequests: Record<string, number> = {};
  let running = true;
  // The hostile user keeps asking for reconnects (each one fetches the huge list again) as fast as
  // its request quota allows.
  const spacingMs = 60_000 / (bench.hostileRequestsPerMinute ?? 600);
  const storm = (async () => {
    while (running) {
      for (const id of ids) {
        const started = performance.now();
        const response = await fetch(`${bench.base}/api/servers/${id}/reconnect`, { method: "POST", headers });
        hostileRequests[response.status] = (hostileRequests[response.status] ?? 0) + 1;
        await response.arrayBuffer();
        const left = spacingMs - (performance.now() - started);
        if (left > 0) await new Promise((r) => setTimeout(r, left));
      }
    }
  })();
  await new Promise((r) => setTimeout(r, 2000)); // let the storm and the flood get going
  const withHostile = await latency(bench.goodCall, bench.calls, bench.appCpuMs);
  running = false;
  await storm;
  return { alone, withHostile, hostileRequests };
}
