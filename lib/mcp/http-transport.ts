/**
 * HTTP transports (docs/architecture.md#transports): Streamable HTTP first, legacy HTTP+SSE when the initialize POST
 * is refused with 400/404/405 or when the URL path ends in `/sse`. Both use the injected fetch (the
 * SSRF guard) and the per-(user, server) OAuth provider. Streamable HTTP reads the answers that came
 * through the Node request lane without web streams (LaneStreamableTransport, below).
 */
import type { JSONRPCMessage, OAuthClientProvider } from "@modelcontextprotocol/client";
import {
  PROTOCOL_VERSION_META_KEY,
  SSEClientTransport,
  deserializeMessage,
  isJSONRPCErrorResponse,
  isJSONRPCResultResponse,
} from "@modelcontextprotocol/client";
import { StreamableHTTPClientTransport, SdkHttpError } from "@modelcontextprotocol/client";
import type { FetchLike } from "@modelcontextprotocol/client";
import { sendableHeaders } from "./config";
import { nodeBodyOf } from "./limits/node-body";

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

// What the SSE reader below uses of the SDK transport. These members are the SDK's own (private in
// its types); LANE_READER_FITS checks they exist, so an SDK that renamed them keeps its own reader.
interface SseStreamOptions {
  resumptionToken?: string;
  onresumptiontoken?: (token: string) => void;
  replayMessageId?: string | number;
  requestSignal?: AbortSignal;
  onRequestStreamEnd?: () => void;
}
interface TransportInternals {
  _abortController?: AbortController;
  _serverRetryMs?: number;
  _scheduleReconnection(options: SseStreamOptions, attempt: number): void;
  _handleSseStream(stream: unknown, options: SseStreamOptions, isReconnectable: boolean): void;
  _applyBodyDerivedHeaders(headers: Headers, message: unknown): void;
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
}

const sdkTransport = StreamableHTTPClientTransport.prototype as unknown as Partial<TransportInternals>;

/** Whether the SDK transport still has the members the lane's SSE reader relies on (a test pins it). */
export const LANE_READER_FITS =
  typeof sdkTransport._handleSseStream === "function" &&
  typeof sdkTransport._scheduleReconnection === "function" &&
  typeof sdkTransport._applyBodyDerivedHeaders === "function";

/**
 * The SDK's Streamable HTTP transport, reading an SSE answer that came through the Node request
 * lane (a NodeBody, lib/mcp/limits/node-body.ts) event by event, without the SDK's three web
 * streams per answer (docs/performance.md#the-mcp-request-lane). The events arrive whole and
 * checked (the connection's SSE limiter passes on only complete events). What the SDK's reader does
 * with them is kept: resumption tokens, `retry:`, the replayed request id, reconnection when the
 * stream ends without an answer. Any other body goes to the SDK's own reader.
 *
 * Each POST also skips the SDK's schema check of the whole outgoing message when it carries no
 * 2026 protocol-version claim: the SDK adds no header then either, and the check (a full schema
 * parse of the message, arguments included) was the largest part of its cost per request.
 */
class LaneStreamableTransport extends StreamableHTTPClientTransport {}

if (LANE_READER_FITS) {
  const sdkReader = sdkTransport._handleSseStream!;
  Object.defineProperty(LaneStreamableTransport.prototype, "_handleSseStream", {
    value: function handleSseStream(this: TransportInternals, stream: unknown, options: SseStreamOptions, isReconnectable: boolean) {
      const body = nodeBodyOf(stream);
      if (!body) return sdkReader.call(this, stream, options, isReconnectable);
      readLaneEvents(this, body, options, isReconnectable);
    },
  });
  const sdkBodyHeaders = sdkTransport._applyBodyDerivedHeaders!;
  Object.defineProperty(LaneStreamableTransport.prototype, "_applyBodyDerivedHeaders", {
    value: function applyBodyDerivedHeaders(this: TransportInternals, headers: Headers, message: unknown) {
      const meta = (message as { params?: { _meta?: Record<string, unknown> } } | undefined)?.params?._meta;
      if (Array.isArray(message) || typeof meta?.[PROTOCOL_VERSION_META_KEY] !== "string") return;
      sdkBodyHeaders.call(this, headers, message);
    },
  });
}

// Read one lane body's SSE events as the SDK's reader would, and end the stream as it would.
function readLaneEvents(
  transport: TransportInternals,
  body: NonNullable<ReturnType<typeof nodeBodyOf>>,
  options: SseStreamOptions,
  isReconnectable: boolean,
) {
  const { onresumptiontoken, replayMessageId, requestSignal, onRequestStreamEnd } = options;
  const isIntentionalAbort = () => transport._abortController?.signal.aborted === true || requestSignal?.aborted === true;
  let lastEventId: string | undefined;
  let hasPrimingEvent = false;
  let receivedResponse = false;
  let pending = "";
  const dispatch = (block: string) => {
    let id: string | undefined;
    let type: string | undefined;
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line === "" || line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? "" : line.slice(colon + 1);
      if (value.startsWith(" ")) value = value.slice(1);
      if (field === "data") data.push(value);
      else if (field === "event") type = value;
      else if (field === "id" && !value.includes("\0")) id = value;
      else if (field === "retry" && /^\d+$/.test(value)) transport._serverRetryMs = Number(value);
    }
    if (id) {
      lastEventId = id;
      hasPrimingEvent = true;
      onresumptiontoken?.(id);
    }
    const text = data.join("\n");
    if (!text || (type && type !== "message")) return;
    try {
      const message = deserializeMessage(text);
      if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
        receivedResponse = true;
        if (replayMessageId !== undefined) message.id = replayMessageId;
      }
      transport.onmessage?.(message);
    } catch (error) {
      transport.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  };
  body.consume({
    chunk: (bytes) => {
      pending += Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
      for (let end = pending.indexOf("\n\n"); end >= 0; end = pending.indexOf("\n\n")) {
        const block = pending.slice(0, end);
        pending = pending.slice(end + 2);
        dispatch(block);
      }
    },
    // A broken stream ends like a finished one: the limiter already answered the request with the
    // reason (as the web-stream path does), and a stream without an answer reconnects.
    end: () => {
      if ((isReconnectable || hasPrimingEvent) && !receivedResponse && transport._abortController && !isIntentionalAbort()) {
        try {
          transport._scheduleReconnection(
            { resumptionToken: lastEventId, onresumptiontoken, replayMessageId, requestSignal, onRequestStreamEnd },
            0,
          );
        } catch (error) {
          transport.onerror?.(new Error(`Failed to reconnect: ${error instanceof Error ? error.message : String(error)}`));
          onRequestStreamEnd?.();
        }
      } else if (!isIntentionalAbort()) onRequestStreamEnd?.();
    },
  });
}
