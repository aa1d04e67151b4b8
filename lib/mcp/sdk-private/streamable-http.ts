/**
 * The one place the app reaches into members of the SDK's Streamable HTTP transport that are private
 * in its types (docs/performance.md#the-mcp-request-lane). They are mirrored from one SDK release,
 * `SDK_VERSION` (package.json pins it exactly); on any other installed version this module refuses
 * to load, since a private member may change meaning without a type error. docs/decisions.md
 * proposes the SDK hook that would make it unnecessary; tests/unit/mcp/sdk-sse-reader.test.ts runs
 * the same recorded SSE streams through the SDK's reader and this one.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { JSONRPCMessage } from "@modelcontextprotocol/client";
import {
  PROTOCOL_VERSION_META_KEY,
  StreamableHTTPClientTransport,
  deserializeMessage,
  isJSONRPCErrorResponse,
  isJSONRPCResultResponse,
} from "@modelcontextprotocol/client";
import { nodeBodyOf } from "../limits/node-body";

/** The `@modelcontextprotocol/client` release whose private transport members this module mirrors. */
export const SDK_VERSION = "2.4.0";

const SDK_PACKAGE = "@modelcontextprotocol/client";

/**
 * The installed client's version, from its package.json (the package exports none): resolved from
 * the running program, else from the working directory. Undefined when neither finds it.
 */
export function installedSdkVersion(): string | undefined {
  for (const base of [process.argv[1], path.join(process.cwd(), "package.json")]) {
    if (!base) continue;
    try {
      let dir = path.dirname(createRequire(base).resolve(SDK_PACKAGE));
      for (; dir !== path.dirname(dir); dir = path.dirname(dir)) {
        const file = path.join(dir, "package.json");
        if (!fs.existsSync(file)) continue;
        const manifest = JSON.parse(fs.readFileSync(file, "utf8")) as { name?: string; version?: string };
        if (manifest.name === SDK_PACKAGE) return manifest.version;
      }
    } catch {
      // Not resolvable from this base: try the next.
    }
  }
  return undefined;
}

// What the reader below uses of the SDK transport: its own members, private in its types.
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

// Refuse to load on another release, or on one whose members are not where 2.4.0 has them.
const installed = installedSdkVersion();
if (installed !== SDK_VERSION) {
  throw new Error(
    `${SDK_PACKAGE} ${installed ?? "(version unreadable)"} is installed, but lib/mcp/sdk-private/streamable-http.ts mirrors ` +
      `private members of ${SDK_VERSION}: install exactly ${SDK_VERSION}, or check each mirrored member against the new ` +
      "release's StreamableHTTPClientTransport and update SDK_VERSION.",
  );
}
for (const member of ["_handleSseStream", "_scheduleReconnection", "_applyBodyDerivedHeaders"] as const) {
  if (typeof sdkTransport[member] !== "function") throw new Error(`${SDK_PACKAGE} ${SDK_VERSION}: the transport has no ${member}`);
}

/**
 * The SDK's Streamable HTTP transport, reading an SSE answer that came through the Node request
 * lane (a NodeBody, lib/mcp/limits/node-body.ts) event by event, without the SDK's three web
 * streams per answer. The events arrive whole and checked (the connection's SSE limiter passes on
 * only complete events). What the SDK's reader does with them is kept: resumption tokens,
 * `retry:`, the replayed request id, reconnection when the stream ends without an answer. Any
 * other body goes to the SDK's own reader.
 *
 * Each POST also skips the SDK's schema check of the whole outgoing message when it carries no
 * 2026 protocol-version claim: the SDK adds no header then either, and the check (a full schema
 * parse of the message, arguments included) was the largest part of its cost per request.
 */
export class LaneStreamableTransport extends StreamableHTTPClientTransport {}

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

/** One SSE event's fields as the SDK's parser (eventsource-parser) reports them. */
interface SseEvent {
  id?: string;
  type?: string;
  data: string[];
}

// Read one lane body's SSE events as the SDK's reader would (eventsource-parser's field rules, then
// the SDK's handling of each event), and end the stream as it would.
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
  // As the SDK's TextDecoderStream: a character split across chunks is kept whole, a leading BOM dropped.
  const decoder = new TextDecoder();
  let pending = "";
  let event: SseEvent = { data: [] };
  // An event is reported only when it had a data line, as the parser does; its id counts only then.
  const dispatch = () => {
    const { id, type, data } = event;
    event = { data: [] };
    if (data.length === 0) return;
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
  const line = (text: string) => {
    if (text === "") return dispatch();
    if (text.startsWith(":")) return;
    const colon = text.indexOf(":");
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") event.data.push(value);
    else if (field === "event") event.type = value || undefined;
    else if (field === "id" && !value.includes("\0")) event.id = value;
    // As the parser's onRetry: applied when the line is read, whether or not its event is reported.
    else if (field === "retry" && /^\d+$/.test(value)) transport._serverRetryMs = Number(value);
  };
  body.consume({
    chunk: (bytes) => {
      const text = decoder.decode(bytes, { stream: true });
      pending += text;
      // A piece with no line end only grows the line (a large event may come in many pieces).
      if (!/[\r\n]/.test(text) && !pending.endsWith("\r")) return;
      // Lines end at CRLF, CR or LF, as the SSE grammar (and the parser) has it; a CR at the very end may be half a CRLF.
      const lines = pending.split(/\r\n|\r(?!$)|\n/);
      pending = lines.pop() ?? "";
      for (const text of lines) line(text);
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
