/**
 * The fetch every HTTP transport of a connection uses, wrapped with the connection's limits: each
 * response body is counted and checked while it streams (never buffered past the cap), standalone
 * event streams are (re)opened only within the reconnect budget, and each request's response can
 * be aborted when the client gives up on the call (freeing its socket). Works with any SDK
 * transport that accepts a custom `fetch`.
 *
 * With `streamingLane`, the transport's own MCP requests (JSON-RPC POSTs, the event stream GET,
 * the session DELETE) go through the inner fetch's Node request lane when it has one
 * (lib/net/node-request.ts) and answer with a NodeBodyResponse: the same checks, no web streams
 * (docs/performance.md#the-mcp-request-lane). OAuth requests keep the plain fetch.
 */
import type { FetchLike } from "@modelcontextprotocol/client";
import { limitedBody, type BodyProcessor } from "./body-processor";
import type { ConnectionGuard, RpcId } from "./connection-guard";
import { JsonLimiter } from "./json-limiter";
import { NodeBody, NodeBodyResponse } from "./node-body";
import { SseLimiter } from "./sse-limiter";
import { raiseHint } from "./settings";
import type { NodeRequester, NodeResponseHead } from "../../net/node-request";

/** Options for cappedFetch. */
export interface CappedFetchOptions {
  /** Send the MCP transport's own requests through `inner.request` when it has one. Default false. */
  streamingLane?: boolean;
}

/** Wrap `inner` (the SSRF-guarded fetch) with `guard`'s limits. */
export function cappedFetch(inner: FetchLike, guard: ConnectionGuard, options: CappedFetchOptions = {}): FetchLike {
  const lane = options.streamingLane ? requesterOf(inner) : undefined;
  return async (url, init) => {
    const method = (init?.method ?? "GET").toUpperCase();
    const headers = init?.headers instanceof Headers ? init.headers : new Headers(init?.headers);
    const standaloneStream = method === "GET" && headers.get("accept")?.includes("text/event-stream") === true;
    if (standaloneStream) {
      const decision = guard.budget.next();
      if (!decision.allow) {
        guard.noteRefused(`the server's event stream was reopened ${guard.limits.maxStreamOpens} times (${raiseHint("maxStreamOpens")})`);
        // 405 is how a server says "no event stream here": the client stops asking, the connection stays.
        return new Response(null, { status: 405, statusText: "stream reopen budget used up" });
      }
      if (decision.waitMs > 0) await sleep(decision.waitMs, init?.signal ?? undefined);
    }
    const rpc = rpcShape(init?.body);
    const ids = rpc?.ids ?? [];
    const controller = new AbortController();
    const outer = init?.signal;
    const onOuterAbort = () => controller.abort(outer?.reason);
    if (outer?.aborted) controller.abort(outer.reason);
    else outer?.addEventListener("abort", onOuterAbort, { once: true });
    const untrack = guard.track(ids, controller);
    const untrackStream = standaloneStream ? guard.trackStream(controller) : () => false;
    const release = () => {
      untrack();
      untrackStream();
      outer?.removeEventListener("abort", onOuterAbort);
    };
    const processorFor = (type: string): BodyProcessor =>
      type === "text/event-stream"
        ? new SseLimiter(guard, ids, standaloneStream)
        : new JsonLimiter(guard, ids, type === "application/json");
    // The lane never follows a redirect, so only requests whose caller handles redirects take it.
    const onLane = lane !== undefined && init?.redirect === "manual" && (typeof url === "string" || url instanceof URL);
    if (onLane && (standaloneStream || method === "DELETE" || (method === "POST" && rpc !== undefined))) {
      let head: NodeResponseHead;
      try {
        head = await lane(new URL(url), { method, headers, body: init?.body as string | undefined, signal: controller.signal });
      } catch (error) {
        release();
        throw error;
      }
      return new NodeBodyResponse(new NodeBody(head.body, processorFor(mediaType(head.headers)), release), head);
    }
    let response: Response;
    try {
      response = await inner(url, { ...init, signal: controller.signal });
    } catch (error) {
      release();
      throw error;
    }
    if (!response.body) {
      release();
      return response;
    }
    const limited = new Response(limitedBody(response.body, processorFor(mediaType(response.headers)), release), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    // Redirect checks downstream read where the response really came from.
    Object.defineProperty(limited, "url", { value: response.url });
    return limited;
  };
}

/**
 * A JSON-RPC POST body's request ids (one message or a batch), or undefined when the body is not
 * JSON-RPC (OAuth form posts, client registration): nothing to track, and not for the lane.
 */
function rpcShape(body: unknown): { ids: RpcId[] } | undefined {
  if (typeof body !== "string" || body.length > 1_000_000) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  if (!messages.every((m) => !!m && typeof m === "object" && (m as { jsonrpc?: unknown }).jsonrpc === "2.0")) return undefined;
  return {
    ids: messages.filter((m): m is { id: RpcId; method: string } => "method" in m && "id" in m).map((m) => m.id),
  };
}

function mediaType(headers: Headers): string {
  return (headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
}

// The Node request lane a guarded fetch carries (`GuardedFetch.request`), when this one has it.
function requesterOf(fetch: FetchLike): NodeRequester | undefined {
  const request = (fetch as { request?: unknown }).request;
  return typeof request === "function" ? (request as NodeRequester) : undefined;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}
