/**
 * The security headers on every page and route: a nonce-based Content-Security-Policy (no inline
 * or remote script, nothing may frame the app, images only from the app and data: URLs), and the
 * usual hardening headers. Next reads the nonce from the request's CSP header and stamps it on its
 * own scripts.
 */

// Random bytes are drawn 64 nonces at a time: one call into the system's generator per request was
// a visible share of a request's cost. Each nonce still gets its own 128 fresh bits, used once.
const NONCE_BYTES = 16;
const pool = new Uint8Array(NONCE_BYTES * 64);
let poolAt = pool.length;

/** A fresh nonce: 128 random bits, base64. */
export function newNonce(): string {
  if (poolAt === pool.length) {
    crypto.getRandomValues(pool);
    poolAt = 0;
  }
  const bytes = pool.subarray(poolAt, poolAt + NONCE_BYTES);
  poolAt += NONCE_BYTES;
  return btoa(String.fromCharCode(...bytes));
}

/** The Content-Security-Policy for one response. */
export function contentSecurityPolicy(options: { nonce: string; https: boolean; development?: boolean }): string {
  const directives = [
    "default-src 'self'",
    // React's development build needs eval for its debugging aids; production never does.
    `script-src 'self' 'nonce-${options.nonce}' 'strict-dynamic'${options.development ? " 'unsafe-eval'" : ""}`,
    // Components set a few style attributes (progress bars); styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ];
  if (options.https) directives.push("upgrade-insecure-requests");
  return directives.join("; ");
}

/** Features the app never uses, closed for it and for anything it might embed. */
export const PERMISSIONS_POLICY = [
  "camera=()",
  "microphone=()",
  "geolocation=()",
  "payment=()",
  "usb=()",
  "serial=()",
  "bluetooth=()",
  "hid=()",
  "midi=()",
  "magnetometer=()",
  "gyroscope=()",
  "accelerometer=()",
  "display-capture=()",
  "browsing-topics=()",
].join(", ");

/** Set the security headers on a response (`csp` is the policy for this response). */
export function applySecurityHeaders(headers: Headers, options: { csp: string; https: boolean }): void {
  headers.set("Content-Security-Policy", options.csp);
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("X-Frame-Options", "DENY");
  headers.set("Referrer-Policy", "no-referrer");
  headers.set("Permissions-Policy", PERMISSIONS_POLICY);
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  if (options.https) headers.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
}
