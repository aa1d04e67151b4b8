/**
 * Call figures per (user, server) for the status page: totals plus p50/p95 latency over a bounded
 * window of recent calls, so memory stays flat on a long-lived connection.
 */
import type { CallMetrics } from "./types";

/** Records call durations; the window keeps the last `windowSize` (default 200). */
export class MetricsRecorder {
  private calls = 0;
  private errors = 0;
  private readonly window: number[] = [];
  // Status is read far more often than calls finish (every discovery reports it): sort once per call.
  private last: CallMetrics | null = null;

  constructor(private readonly windowSize = 200) {}

  /** Record one finished call. */
  record(durationMs: number, failed: boolean): void {
    this.calls++;
    if (failed) this.errors++;
    this.window.push(durationMs);
    if (this.window.length > this.windowSize) this.window.shift();
    this.last = null;
  }

  /** Current figures; latencies are null before the first call. */
  snapshot(): CallMetrics {
    if (!this.last) {
      const sorted = [...this.window].sort((a, b) => a - b);
      this.last = { calls: this.calls, errors: this.errors, p50Ms: percentile(sorted, 0.5), p95Ms: percentile(sorted, 0.95) };
    }
    return this.last;
  }
}

/** Nearest-rank percentile of an ascending list, or null when empty. */
export function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil(p * sorted.length));
  return sorted[rank - 1];
}
