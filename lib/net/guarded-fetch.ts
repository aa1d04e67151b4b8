/**
 * The SSRF-guarded fetch every server-side request of the web app goes through (docs/security.md#ssrf-guard): MCP
 * server URLs, OAuth metadata, registration and token endpoints, and every redirect hop. Each hop
 * is resolved and checked first, then connected to exactly the checked addresses.
 */
import { FormData as UndiciFormData, fetch as undiciFetch, type RequestInit as UndiciRequestInit } from "undici";
import { EMPTY_ALLOW_LIST, type AllowList } from "./address-policy";
import { NetError, UnsafeUrlError, displayUrl } from "./errors";
import { dropHopByHopHeaders } from "./hop-headers";
import { createNodeRequester, type NodeRequester } from "./node-request";
import { PinnedAgentPool } from "./pinned-agent";
import { checkTarget, systemResolver, type HttpPolicy, type Resolver } from "./target-check";

/** The `fetch` shape the MCP SDK and OAuth clients accept. */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** A guarded fetch; `close()` releases pooled connections (open streams finish first). */
export interface GuardedFetch extends FetchLike {
  close(): Promise<void>;
  /** The same guard on Node's HTTP client, for the engine's MCP requests (lib/net/node-request.ts). */
  request: NodeRequester;
}

/** Options for createGuardedFetch. */
export interface GuardedFetchOptions {
  /** Hosts and networks opened despite the policy (`SWITCHBOARD_ALLOWED_HOSTS`). Default: none. */
  allowedHosts?: AllowList;
  /**
   * When plain http is allowed, on every hop. Default "always" (MCP server URLs may be http);
   * OAuth call sites pass "loopback" or "never" explicitly.
   */
  allowHttp?: HttpPolicy;
  /** Redirects followed before giving up. Default 5. */
  maxRedirects?: number;
  /** Name resolution. Default: `dns.lookup` with all addresses; tests inject their own. */
  resolver?: Resolver;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
// Fetch spec "request-body-header name": dropped with the body when a redirect turns into GET.
const BODY_HEADERS = ["content-type", "content-length", "content-encoding", "content-language", "content-location"];
// Credentials bound to the origin they were given for; never forwarded to another origin.
const ORIGIN_CREDENTIAL_HEADERS = ["authorization", "cookie", "proxy-authorization"];

/**
 * Create a fetch that refuses blocked destinations with BlockedRequestError before any socket
 * opens, follows redirects itself (re-checking each hop) and returns the final Response untouched,
 * so streaming (SSE) bodies keep working.
 */
export function createGuardedFetch(options: GuardedFetchOptions = {}): GuardedFetch {
  const check = {
    allowedHosts: options.allowedHosts ?? EMPTY_ALLOW_LIST,
    allowHttp: options.allowHttp ?? "always",
    resolver: options.resolver ?? systemResolver,
  };
  const maxRedirects = options.maxRedirects ?? 5;
  const pool = new PinnedAgentPool();

  const guardedFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = await toRequestParts(input, init);
    let { url, method, body } = request;
    // Host, Content-Length and the other hop-by-hop headers come from the URL and the body only.
    const headers = dropHopByHopHeaders(request.headers);
    for (let redirects = 0; ; redirects++) {
      const target = await checkTarget(url, check);
      const response = await undiciFetch(url.href, {
        ...(request.rest as UndiciRequestInit),
        method,
        headers: headers as UndiciRequestInit["headers"],
        body: toUndiciBody(body),
        signal: request.signal,
        redirect: "manual",
        dispatcher: pool.agentFor(target),
      });
      const location = response.headers.get("location");
      if (!REDIRECT_STATUSES.has(response.status) || location === null || request.redirect === "manual") {
        return response as unknown as Response;
      }
      await response.body?.cancel();
      if (request.redirect === "error") {
        throw new NetError("redirect_failed", 502, `${displayUrl(url)} redirected (${response.status}) but redirects are not allowed here`);
      }
      if (redirects >= maxRedirects) {
        throw new NetError(
          "too_many_redirects",
          502,
          `too many redirects (more than ${maxRedirects}) starting at ${displayUrl(request.url)}`,
        );
      }
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new NetError("redirect_failed", 502, `${displayUrl(url)} redirected to an invalid URL`);
      }
      const status = response.status;
      if ((status === 303 && method !== "HEAD") || ((status === 301 || status === 302) && method === "POST")) {
        method = "GET";
        body = undefined;
        for (const name of BODY_HEADERS) headers.delete(name);
      } else if (body != null && !isReplayable(body)) {
        throw new NetError("redirect_failed", 502, `${displayUrl(url)} redirected (${status}) but the streamed body cannot be sent again`);
      }
      if (next.origin !== url.origin) for (const name of ORIGIN_CREDENTIAL_HEADERS) headers.delete(name);
      url = next;
    }
  };
  const request = createNodeRequester(check);
  const close = async () => {
    request.close();
    await pool.close();
  };
  return Object.assign(guardedFetch, { close, request });
}

interface RequestParts {
  url: URL;
  method: string;
  headers: Headers;
  body: BodyInit | null | undefined;
  signal: AbortSignal | null | undefined;
  redirect: RequestRedirect;
  rest: Omit<RequestInit, "method" | "headers" | "body" | "signal" | "redirect">;
}

async function toRequestParts(input: string | URL | Request, init: RequestInit = {}): Promise<RequestParts> {
  const { method, headers, body, signal, redirect, ...rest } = init;
  if (typeof input === "string" || input instanceof URL) {
    let url: URL;
    try {
      url = new URL(input);
    } catch {
      throw new UnsafeUrlError("unsafe_url", "invalid URL");
    }
    return {
      url,
      method: (method ?? "GET").toUpperCase(),
      headers: new Headers(headers),
      body,
      signal,
      redirect: redirect ?? "follow",
      rest,
    };
  }
  // A Request's body is a one-shot stream; read it once so 307/308 hops can resend it.
  const requestBody = body ?? (input.body ? await input.arrayBuffer() : undefined);
  return {
    url: new URL(input.url),
    method: (method ?? input.method).toUpperCase(),
    headers: new Headers(headers ?? input.headers),
    body: requestBody,
    signal: signal ?? input.signal,
    redirect: redirect ?? input.redirect,
    rest,
  };
}

function isReplayable(body: BodyInit): boolean {
  if (typeof body === "string" || body instanceof ArrayBuffer || ArrayBuffer.isView(body)) return true;
  if (body instanceof URLSearchParams || body instanceof Blob || body instanceof FormData) return true;
  return false;
}

// Node's global FormData comes from its bundled undici, which the undici package does not
// recognise (it would send "[object FormData]"); copy it into the package's own class.
function toUndiciBody(body: BodyInit | null | undefined): UndiciRequestInit["body"] {
  if (body instanceof FormData && !(body instanceof UndiciFormData)) {
    const copy = new UndiciFormData();
    for (const [name, value] of body) copy.append(name, value);
    return copy;
  }
  return body as UndiciRequestInit["body"];
}
