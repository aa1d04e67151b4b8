/**
 * Which telemetry is on, from the environment (docs/telemetry.md): OTLP export when the standard
 * `OTEL_EXPORTER_OTLP_*` endpoint is set (the exporters read the rest of the `OTEL_*` variables
 * themselves), and the Prometheus endpoint when `SWITCHBOARD_METRICS_TOKEN` is set.
 */
import { type EnvBag, environment } from "../env";

/** The OTLP over HTTP encodings the app exports with. */
export type OtlpProtocol = "http/protobuf" | "http/json";

/** The resolved OTLP settings, or null when no endpoint is set (telemetry off, nothing loaded). */
export interface OtlpSettings {
  traces: { protocol: OtlpProtocol } | null;
  metrics: { protocol: OtlpProtocol } | null;
}

const set = (value: string | undefined) => (value?.trim() ? value.trim() : undefined);

// The OTel spec's default is http/protobuf; a signal's own variable wins over the shared one.
function protocolOf(env: EnvBag, signal: "TRACES" | "METRICS"): OtlpProtocol {
  const raw = set(env[`OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`]) ?? set(env.OTEL_EXPORTER_OTLP_PROTOCOL);
  return raw === "http/json" ? "http/json" : "http/protobuf";
}

/** Traces and metrics export as the `OTEL_*` variables ask; `OTEL_SDK_DISABLED=true` turns both off. */
export function otlpSettings(env: EnvBag = environment()): OtlpSettings | null {
  if (set(env.OTEL_SDK_DISABLED)?.toLowerCase() === "true") return null;
  const shared = set(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  const tracesOn = (shared ?? set(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)) && set(env.OTEL_TRACES_EXPORTER) !== "none";
  const metricsOn = (shared ?? set(env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT)) && set(env.OTEL_METRICS_EXPORTER) !== "none";
  if (!tracesOn && !metricsOn) return null;
  return {
    traces: tracesOn ? { protocol: protocolOf(env, "TRACES") } : null,
    metrics: metricsOn ? { protocol: protocolOf(env, "METRICS") } : null,
  };
}

/** The bearer token of `GET /api/metrics` (`SWITCHBOARD_METRICS_TOKEN`); unset: the endpoint is off (404). */
export function metricsToken(env: EnvBag = environment()): string | undefined {
  return set(env.SWITCHBOARD_METRICS_TOKEN);
}
