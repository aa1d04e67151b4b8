/**
 * The span of one incoming API request (HTTP semantic conventions), made by the route wrapper
 * (lib/http.ts) and the direct lane: method, path (credential-looking parts masked, no query),
 * status; a `traceparent` the caller sent continues its trace. Every answer is counted too.
 */
import { context, propagation, type Span } from "@opentelemetry/api";
import { maskUrlSecrets } from "../redact";
import { countRequest } from "./metrics";
import { contextWith, endSpan, SpanKind, startSpan } from "./spans";
import { tracingOn } from "./state";

/** The parts of a request a span names. */
export interface RequestFacts {
  method: string;
  /** The full URL or the path; only the path is kept. */
  url: string;
  headers?: Headers;
}

const headerGetter = {
  keys: (carrier: Headers) => [...carrier.keys()],
  get: (carrier: Headers, key: string) => carrier.get(key) ?? undefined,
};

/** Run `handle` inside the request's server span and count its answer; without tracing only the count. */
export async function tracedRequest(facts: RequestFacts, handle: () => Promise<Response>): Promise<Response> {
  if (!tracingOn()) {
    const response = await handle();
    countRequest(facts.method, response.status);
    return response;
  }
  const span = startRequestSpan(facts);
  try {
    const response = await context.with(contextWith(span, spanParent(facts)), handle);
    endRequestSpan(span, facts.method, response.status);
    return response;
  } catch (error) {
    // The wrapper turns everything into a response; this is the lane's own failure path.
    endSpan(span, error);
    countRequest(facts.method, 500);
    throw error;
  }
}

/** The same for a handler that writes its own answer and returns its status (the direct lane). */
export async function tracedStatus(facts: RequestFacts, handle: () => Promise<number>): Promise<number> {
  if (!tracingOn()) {
    const status = await handle();
    countRequest(facts.method, status);
    return status;
  }
  const span = startRequestSpan(facts);
  try {
    const status = await context.with(contextWith(span, spanParent(facts)), handle);
    endRequestSpan(span, facts.method, status);
    return status;
  } catch (error) {
    endSpan(span, error);
    countRequest(facts.method, 500);
    throw error;
  }
}

function spanParent(facts: RequestFacts) {
  return facts.headers ? propagation.extract(context.active(), facts.headers, headerGetter) : context.active();
}

/** Start the server span of a request (undefined when tracing is off). */
export function startRequestSpan(facts: RequestFacts): Span | undefined {
  const path = pathOf(facts.url);
  return startSpan(facts.method.toUpperCase(), {
    kind: SpanKind.SERVER,
    parent: spanParent(facts),
    attributes: { "http.request.method": facts.method.toUpperCase(), "url.path": path },
  });
}

/** End the request's span with its status (5xx is an error, as the HTTP conventions say for servers) and count it. */
export function endRequestSpan(span: Span | undefined, method: string, status: number): void {
  countRequest(method, status);
  if (!span) return;
  span.setAttribute("http.response.status_code", status);
  endSpan(span, undefined, status >= 500 ? String(status) : undefined);
}

// The path only (a query can carry tokens), with token-looking segments masked as the logs mask them.
function pathOf(url: string): string {
  try {
    const parsed = new URL(url, "http://localhost");
    return new URL(maskUrlSecrets(parsed.origin + parsed.pathname)).pathname;
  } catch {
    return "/";
  }
}
