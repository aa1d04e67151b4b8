/**
 * The process's telemetry switches, kept on `globalThis` so Next's dev-mode module reloads and the
 * direct lane's separately bundled copy see the same one: whether spans are made at all.
 */
const slot = globalThis as { __switchboardTelemetry?: { tracing: boolean } };

function state() {
  slot.__switchboardTelemetry ??= { tracing: false };
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
