/**
 * HTTP transports (docs/architecture.md#transports): Streamable HTTP first, legacy HTTP+SSE when the initialize POST
 * is refused with 400/404/405 or when the URL path ends in `/sse`. Both use the injected fetch (the
 * SSRF guard) and the per-(user, server) OAuth provider. Streamable HTTP reads the answers that came
 * through the Node request lane without web streams (LaneStreamableTransport, lib/mcp/sdk-private/).
 */
import type { OAuthClientProvider } from "@modelcontextprotocol/client";
import { SSEClientTransport, type StreamableHTTPClientTransport, SdkHttpError } from "@modelcontextprotocol/client";
import type { FetchLike } from "@modelcontextprotocol/client";
import { sendableHeaders } from "./config";
import { LaneStreamableTransport } from "./sdk-private/streamable-http";

/** What both HTTP transports need. */
export interface HttpTransportOptions {
  url: string;
  headers?: Record<string, string>;
  fetch?: FetchLike;
  authProvider?: OAuthClientProvider;
}

/**
 * Reconnect policy for server-closed SSE streams. The SDK resumes with `Last-Event-ID` and, once a
 * server sent a `retry:` field, waits that long instead of this backoff.
 */
export const SSE_RECONNECTION = {
  initialReconnectionDelay: 1000,
  reconnectionDelayGrowFactor: 2,
  maxReconnectionDelay: 60_000,
  maxRetries: 5,
};

/** Whether the URL names a legacy SSE endpoint (path ends in `/sse`), which skips Streamable HTTP. */
export function isLegacySseUrl(url: string): boolean {
  return new URL(url).pathname.replace(/\/+$/, "").endsWith("/sse");
}

/** Whether a failed Streamable HTTP initialize means "old server: try legacy SSE" (spec: 400/404/405). */
export function shouldFallBackToSse(error: unknown): boolean {
  return error instanceof SdkHttpError && (error.status === 400 || error.status === 404 || error.status === 405);
}

/** A Streamable HTTP transport with the configured headers (less the reserved ones) on every request. */
export function createStreamableTransport(options: HttpTransportOptions): StreamableHTTPClientTransport {
  return new LaneStreamableTransport(new URL(options.url), {
    // The SDK lets these override its own (session id, protocol version): reserved ones never pass.
    requestInit: { headers: sendableHeaders(options.headers) },
    fetch: options.fetch,
    authProvider: options.authProvider,
    reconnectionOptions: SSE_RECONNECTION,
  });
}

/** A legacy HTTP+SSE transport; headers go on both the event stream GET and the message POSTs. */
export function createSseTransport(options: HttpTransportOptions): SSEClientTransport {
  return new SSEClientTransport(new URL(options.url), {
    requestInit: { headers: sendableHeaders(options.headers) },
    fetch: options.fetch,
    authProvider: options.authProvider,
  });
}
