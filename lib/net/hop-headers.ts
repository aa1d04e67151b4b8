/**
 * Hop-by-hop and routing request headers (RFC 9110 §7.6.1, plus `Host`, `Content-Length` and every
 * `Proxy-*`): the HTTP client sets them from the URL and the body. One a caller passed would reach
 * another virtual host behind the same address, or desynchronise a kept-alive connection, so both
 * of the guard's request paths drop them whatever the caller gave (docs/security.md#ssrf-guard).
 */
const HOP_BY_HOP = new Set(["host", "content-length", "transfer-encoding", "connection", "keep-alive", "upgrade", "te", "trailer"]);

/** Whether `name` is a header the client sets itself and a caller never may (case-insensitive). */
export function isHopByHopHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return HOP_BY_HOP.has(lower) || lower.startsWith("proxy-");
}

/** Remove every hop-by-hop header from `headers` (in place). */
export function dropHopByHopHeaders(headers: Headers): Headers {
  for (const name of [...headers.keys()]) if (isHopByHopHeader(name)) headers.delete(name);
  return headers;
}
