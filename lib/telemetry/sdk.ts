/**
 * The OpenTelemetry SDK, started only when an OTLP endpoint is set (lib/telemetry/settings.ts):
 * spans in batches to the OTLP traces endpoint (http/protobuf or http/json), the app's metric
 * registry mirrored to the OTLP metrics endpoint, W3C trace context as the propagator. Without an
 * endpoint nothing of the SDK is loaded (dynamic imports) and the API stays the no-op.
 */
import { context, metrics, propagation, trace } from "@opentelemetry/api";
import { APP_VERSION, environment } from "../env";
import { metricsRegistry } from "./metrics";
import { type OtlpSettings, otlpSettings } from "./settings";
import { setTracingOn, tracingOn } from "./state";

interface Running {
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

const slot = globalThis as { __switchboardOtel?: Promise<Running | null> };

/** Start the SDK once per process when the environment asks for it; resolves to whether it runs. */
export async function startTelemetry(settings: OtlpSettings | null = otlpSettings()): Promise<boolean> {
  if (!settings) return false;
  slot.__switchboardOtel ??= start(settings);
  return (await slot.__switchboardOtel) !== null;
}

/** Export every finished span and the current metrics now (tests, and before the process exits). */
export async function flushTelemetry(): Promise<void> {
  await (await slot.__switchboardOtel)?.flush();
}

/** Flush and stop the SDK; the API goes back to the no-op (a later `startTelemetry` starts afresh). */
export async function shutdownTelemetry(): Promise<void> {
  const running = await slot.__switchboardOtel;
  slot.__switchboardOtel = undefined;
  if (!running) return;
  setTracingOn(false);
  await running.shutdown();
  trace.disable();
  metrics.disable();
  propagation.disable();
  context.disable();
}

async function start(settings: OtlpSettings): Promise<Running | null> {
  const [{ resourceFromAttributes, detectResources, envDetector }, { W3CTraceContextPropagator }, { AsyncLocalStorageContextManager }] =
    await Promise.all([import("@opentelemetry/resources"), import("@opentelemetry/core"), import("@opentelemetry/context-async-hooks")]);
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (the env detector) override the app's own names.
  const resource = resourceFromAttributes({ "service.name": "switchboard", "service.version": APP_VERSION }).merge(
    detectResources({ detectors: [envDetector] }),
  );
  const parts: Running[] = [];
  if (settings.traces) {
    const { BatchSpanProcessor, TracerProvider } = await import("@opentelemetry/sdk-trace");
    // Each exporter reads the OTEL_EXPORTER_OTLP_* endpoint, headers, timeout and compression itself.
    const { OTLPTraceExporter } =
      settings.traces.protocol === "http/json"
        ? await import("@opentelemetry/exporter-trace-otlp-http")
        : await import("@opentelemetry/exporter-trace-otlp-proto");
    const provider = new TracerProvider({ resource, spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter() })] });
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    // Someone else's provider already registered (the operator's own instrumentation): ours stays out.
    if (trace.setGlobalTracerProvider(provider)) {
      setTracingOn(true);
      parts.push({ flush: () => provider.forceFlush(), shutdown: () => provider.shutdown() });
    }
  }
  if (settings.metrics) parts.push(await startMetrics(resource));
  if (parts.length === 0) return null;
  return {
    flush: async () => void (await Promise.all(parts.map((p) => p.flush()))),
    shutdown: async () => void (await Promise.all(parts.map((p) => p.shutdown()))),
  };
}

// The registry's series as OTLP metrics (JSON encoding: the one OTLP metrics exporter installed; every
// OTLP/HTTP receiver takes both encodings). Counters lose Prometheus' `_total` suffix, as OTLP names do.
async function startMetrics(resource: import("@opentelemetry/resources").Resource): Promise<Running> {
  const [{ MeterProvider, PeriodicExportingMetricReader }, { OTLPMetricExporter }] = await Promise.all([
    import("@opentelemetry/sdk-metrics"),
    import("@opentelemetry/exporter-metrics-otlp-http"),
  ]);
  const interval = Number(environment().OTEL_METRIC_EXPORT_INTERVAL) || 60_000;
  const reader = new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter(), exportIntervalMillis: interval });
  const provider = new MeterProvider({ resource, readers: [reader] });
  metrics.setGlobalMeterProvider(provider);
  const meter = provider.getMeter("switchboard", APP_VERSION);
  const registry = metricsRegistry();
  for (const metric of await registry.getMetricsAsJSON()) {
    const name = metric.name.replace(/_total$/, "");
    const instrument =
      String(metric.type) === "counter"
        ? meter.createObservableCounter(name, { description: metric.help })
        : meter.createObservableGauge(name, { description: metric.help });
    instrument.addCallback(async (result) => {
      const current = await registry.getSingleMetric(metric.name)?.get();
      for (const value of current?.values ?? []) result.observe(value.value, value.labels as Record<string, string>);
    });
  }
  return { flush: () => provider.forceFlush(), shutdown: () => provider.shutdown() };
}

/** Whether spans are being made (for callers that would otherwise prepare span attributes for nothing). */
export { tracingOn };
