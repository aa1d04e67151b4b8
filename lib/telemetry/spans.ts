/**
 * The app's span helpers over the OpenTelemetry API. With tracing off (no OTLP endpoint) they make
 * no span at all and only run the work: the API's no-op objects are not even created.
 */
import { type Attributes, type Context, context, type Span, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { APP_VERSION } from "../env";
import { tracingOn } from "./state";

export { SpanKind };

/** The app's tracer (the global provider's; the API's no-op before one is registered). */
export function tracer() {
  return trace.getTracer("switchboard", APP_VERSION);
}

/** Options of a span: its kind, first attributes and, when not the active context, its parent. */
export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  parent?: Context;
}

/** Start a span (or nothing when tracing is off); the caller ends it with `endSpan`. */
export function startSpan(name: string, options: SpanOptions = {}): Span | undefined {
  if (!tracingOn()) return undefined;
  return tracer().startSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes },
    options.parent ?? context.active(),
  );
}

/**
 * End `span`; with an error it is marked failed with `error.type` (the error's class or code, never
 * its message: messages can carry arguments, URLs or keys).
 */
export function endSpan(span: Span | undefined, error?: unknown, errorType?: string): void {
  if (!span) return;
  if (error !== undefined || errorType) {
    span.setAttribute("error.type", errorType ?? errorTypeOf(error));
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}

/** A short, closed name for a failure: the code of an app or engine error, else the class name. */
export function errorTypeOf(error: unknown): string {
  if (error && typeof error === "object") {
    const code = (error as { code?: unknown }).code;
    if (typeof code === "string" && /^[A-Za-z0-9_.-]{1,64}$/.test(code)) return code;
    const name = (error as { name?: unknown }).name;
    if (typeof name === "string" && /^[A-Za-z0-9_]{1,64}$/.test(name)) return name;
  }
  return "_OTHER";
}

/** Run `work` inside a span that ends when it settles (failed when it throws); no span when tracing is off. */
export async function inSpan<T>(name: string, options: SpanOptions, work: (span: Span | undefined) => Promise<T>): Promise<T> {
  const span = startSpan(name, options);
  if (!span) return work(undefined);
  try {
    const result = await context.with(trace.setSpan(options.parent ?? context.active(), span), () => work(span));
    endSpan(span);
    return result;
  } catch (error) {
    endSpan(span, error);
    throw error;
  }
}

/** The context with `span` active (the parent of what runs in it); the active context when there is none. */
export function contextWith(span: Span | undefined, parent: Context = context.active()): Context {
  return span ? trace.setSpan(parent, span) : parent;
}

/** Run `work` with `ctx` active (so spans and the `traceparent` of what it calls descend from it). */
export function runIn<T>(ctx: Context | undefined, work: () => T): T {
  return ctx ? context.with(ctx, work) : work();
}
