/**
 * What every request meets before any route or page, in one function for both ways a request can
 * arrive (proxy.ts in front of Next's router, and the direct lane, lib/lane/direct-lane.ts): the
 * DNS-rebinding and cross-site refusals, the security headers with a per-request CSP nonce, and the public origin.
 */
import { isDevelopment } from "../env";
import { csrfRefusal, type CsrfRefusal } from "./csrf";
import { contentSecurityPolicy, newNonce } from "./headers";
import { publicOriginFor } from "./public-url";
import { rebindingRefusal } from "./rebinding";

/** The verdict and headers for one request. */
export interface RequestPolicy {
  /** Why the request is refused (403/415: rebinding.ts, csrf.ts), or null when it may go ahead. */
  refusal: CsrfRefusal | null;
  /** The app's public origin for this request. */
  publicOrigin: string;
  https: boolean;
  nonce: string;
  csp: string;
}

/** Judge one request by its method, path and headers. */
export function requestPolicy(request: { method: string; pathname: string; headers: Headers }): RequestPolicy {
  const publicOrigin = publicOriginFor({ host: request.headers.get("host"), forwardedProto: request.headers.get("x-forwarded-proto") });
  const https = publicOrigin.startsWith("https://");
  const nonce = newNonce();
  const csp = contentSecurityPolicy({ nonce, https, development: isDevelopment() });
  const judged = { method: request.method, pathname: request.pathname, headers: request.headers, publicOrigin };
  const refusal = rebindingRefusal(judged) ?? csrfRefusal(judged);
  return { refusal, publicOrigin, https, nonce, csp };
}
