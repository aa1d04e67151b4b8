/**
 * The "hostile neighbour" figure of `npm run bench`: a well-behaved user's tool-call latency
 * through the API, measured alone and again while another user's hostile servers run (a 60 MB
 * tool list fetched again and again, a `retry: 0` reconnect storm, a notification flood), from
 * the fixtures in tests/fixtures/mcp.
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
}

/** Latency percentiles of `calls` sequential good calls. */
export interface Latency {
  p50: number;
  p99: number;
}

async function latency(call: () => Promise<void>, calls: number): Promise<Latency> {
  for (let i = 0; i < 20; i++) await call();
  const samples: number[] = [];
  for (let i = 0; i < calls; i++) {
    const t0 = performance.now();
    await call();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  const at = (p: number) => samples[Math.min(samples.length - 1, Math.floor((p / 100) * samples.length))];
  return { p50: at(50), p99: at(99) };
}

/** Measure alone, then with the hostile user's servers running; returns both and what the hostile side did. */
export async function hostileNeighbour(
  bench: NeighbourBench,
): Promise<{ alone: Latency; withHostile: Latency; hostileRequests: Record<string, number> }> {
  const alone = await latency(bench.goodCall, bench.calls);
  const headers = { "content-type": "application/json", cookie: bench.hostileCookie };
  const ids: string[] = [];
  for (const mode of ["big-list", "retry0", "flood"]) {
    const created = await fetch(`${bench.base}/api/servers`, {
      method: "POST",
      headers,
      body: JSON.stringify({ name: mode.replace("-", "_"), config: { url: `${bench.hostileBase}/mcp/${mode}` } }),
    });
    ids.push(((await created.json()) as { id: string }).id);
  }
  const hostileRequests: Record<string, number> = {};
  let running = true;
  // The hostile user keeps asking for reconnects (each one fetches the huge list again) as fast as answered.
  const storm = (async () => {
    while (running) {
      for (const id of ids) {
        const response = await fetch(`${bench.base}/api/servers/${id}/reconnect`, { method: "POST", headers });
        hostileRequests[response.status] = (hostileRequests[response.status] ?? 0) + 1;
        await response.arrayBuffer();
      }
    }
  })();
  await new Promise((r) => setTimeout(r, 2000)); // let the storm and the flood get going
  const withHostile = await latency(bench.goodCall, bench.calls);
  running = false;
  await storm;
  return { alone, withHostile, hostileRequests };
}
