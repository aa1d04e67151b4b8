/**
 * The fetch every HTTP transport of a connection uses, wrapped with the connection's limits: each
 * response body is counted and checked while it streams (never buffered past the cap), standalone
 * event streams are (re)opened only within the reconnect budget, and each request's response can
 * be aborted when the client gives up on the call (freeing its socket). Works with any SDK
 * transport that accepts a custom `fetch`.
 */
import type { FetchLike } from "@modelcontextprotocol/client";
import { limitedBody, type BodyProcessor } from "./body-processor";
import type { ConnectionGuard, RpcId } from "./connection-guard";
import { JsonLimiter } from "./json-limiter";
import { SseLimiter } from "./sse-limiter";
import { raiseHint } from "./settings";

/** Wrap `inner` (the SSRF-guarded fetch) with `guard`'s limits. */
export function cappedFetch(inner: FetchLike, guard: ConnectionGuard): FetchLike {
  return async (url, init) => {
    const method = (init?.method ?? "GET").toUpperCase();
    const standaloneStream = method === "GET" && new Headers(init?.headers).get("accept")?.includes("text/event-stream") === true;
    if (standaloneStream) {
      const decision = guard.budget.next();
      if (!decision.allow) {
        guard.noteRefused(`the server's event stream was reopened ${guard.limits.maxStreamOpens} times (${raiseHint("maxStreamOpens")})`);
        // 405 is how a server says "no event stream here": the client stops asking, the connection stays.
        return new Response(null, { status: 405, statusText: "stream reopen budget used up" });
      }
      if (decision.waitMs > 0) await sleep(decision.waitMs, init?.signal ?? undefined);
    }
    const ids = requestIds(init?.body);
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
    const type = (response.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
    const processor: BodyProcessor =
      type === "text/event-stream"
        ? new SseLimiter(guard, ids, standaloneStream)
        : new JsonLimiter(guard, ids, type === "application/json");
    const limited = new Response(limitedBody(response.body, processor, release), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    // Redirect checks downstream read where the response really came from.
    Object.defineProperty(limited, "url", { value: response.url });
    return limited;
  };
}

/** The ids of the JSON-RPC requests in a POST body (one message or a batch). */
function requestIds(body: unknown): RpcId[] {
  if (typeof body !== "string" || body.length > 1_000_000) return [];
  try {
    const parsed = JSON.parse(body) as unknown;
    const messages = Array.isArray(parsed) ? parsed : [parsed];
    return messages
      .filter((m): m is { id: RpcId; method: string } => !!m && typeof m === "object" && "method" in m && "id" in m)
      .map((m) => m.id);
  } catch {
    return []; // not JSON-RPC (OAuth form posts): nothing to track
  }
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
