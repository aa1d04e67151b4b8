/**
 * The process's telemetry switches, kept on `globalThis` so Next's dev-mode module reloads and the
 * direct lane's separately bundled copy see the same ones: whether spans are made at all, and
 * whether an administrator turned content capture on. The latter is this replica's copy of the
 * stored setting, which every replica follows (lib/runtime/telemetry.ts): a flag, so a span reads
 * it for free.
 */
const slot = globalThis as { __switchboardTelemetry?: { tracing: boolean; captureContent: boolean } };

function state() {
  slot.__switchboardTelemetry ??= { tracing: false, captureContent: false };
  return slot.__switchboardTelemetry;
}

/** Whether a tracer provider of ours is registered: off, no span object is ever made (zero cost). */
export function tracingOn(): boolean {
  return state().tracing;
}

/** Set by the SDK start-up (lib/telemetry/sdk.ts) and by its shutdown. */
export function setTracingOn(on: boolean): void {
  state().tracing = on;
}

/** Whether spans may carry tool arguments and results (redacted); an instance setting, off by default. */
export function contentCaptureOn(): boolean {
  return state().captureContent;
}

/** Apply the instance setting (read at start-up and whenever an administrator changes it, on any replica). */
export function setContentCapture(on: boolean): void {
  state().captureContent = on;
}
