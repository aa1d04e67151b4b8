/**
 * A total time limit on a fetch (headers and body): an endpoint that never answers, or answers
 * forever, fails with a timeout instead of holding the request that waits for it. For short
 * request/response exchanges (OAuth metadata, registration, token); long-lived event streams get
 * their bounds from the MCP engine instead.
 */
import type { FetchLike } from "@modelcontextprotocol/client";
import { type EnvBag, environment } from "../env";

/** Default limit of one OAuth exchange (`SWITCHBOARD_OAUTH_TIMEOUT_SECONDS`, default 15). */
export function oauthTimeoutMs(env: EnvBag = environment()): number {
  const seconds = Number(env.SWITCHBOARD_OAUTH_TIMEOUT_SECONDS);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 15_000;
}

/** `inner` with every request aborted after `timeoutMs` (the caller's own signal still applies). */
export function withTimeout(inner: FetchLike, timeoutMs: number): FetchLike {
  return (url, init) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    return inner(url, { ...init, signal });
  };
}
