/**
 * The total ceiling of one tool call (`max_total_timeout`, docs/configuration.md#server-config).
 * `timeout` restarts on every progress notification, so a server that keeps reporting progress
 * could otherwise hold a call (and its queue slot) forever; this deadline never moves.
 */
import { SdkError, SdkErrorCode } from "@modelcontextprotocol/client";
import type { Clock } from "./clock";

/** A call's signal that also aborts at the deadline; `dispose` clears the timer once the call ended. */
export interface CallDeadline {
  signal: AbortSignal;
  dispose(): void;
}

/**
 * Start the deadline of a call. At `totalMs` the signal aborts with the SDK's own timeout error
 * carrying `maxTotalTimeout` (the shape of the SDK's `maxTotalTimeout` option), so the SDK sends
 * `notifications/cancelled` (a task is cancelled) and the error translates to `call_timeout`
 * naming the setting. An abort of `outer` (Stop) passes through with its own reason; without
 * `totalMs` the call has no ceiling.
 */
export function startCallDeadline(totalMs: number | undefined, clock: Clock, outer?: AbortSignal): CallDeadline {
  if (totalMs === undefined) return { signal: outer ?? new AbortController().signal, dispose: () => {} };
  const deadline = new AbortController();
  const timer = clock.setTimeout(() => {
    deadline.abort(new SdkError(SdkErrorCode.RequestTimeout, "Maximum total timeout exceeded", { maxTotalTimeout: totalMs }));
  }, totalMs);
  return {
    signal: outer ? AbortSignal.any([outer, deadline.signal]) : deadline.signal,
    dispose: () => clock.clearTimeout(timer),
  };
}

/** The ceiling an SDK timeout error reports, when it is the total one (ours or the SDK's option). */
export function totalTimeoutOf(error: SdkError): number | undefined {
  const data = error.data as { maxTotalTimeout?: unknown } | undefined;
  return typeof data?.maxTotalTimeout === "number" ? data.maxTotalTimeout : undefined;
}
