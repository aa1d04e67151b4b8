/**
 * What the app's HTTP server (scripts/server.mjs) does to every request before the direct lane or
 * Next sees it: stamp the client address the throttles count (lib/security/client-address.ts), and
 * refuse a body declared larger than the app's body cap with 413 before a byte of it is read (Next
 * would otherwise buffer it for proxy.ts, up to `proxyClientMaxBodySize`, before any route ran).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { BlockList } from "node:net";
import { trustedProxiesSetting } from "../env";
import { maxBodyBytes } from "../http";
import { parseTrustedProxies, stampClientAddress } from "../security/client-address";
import { applySecurityHeaders } from "../security/headers";

/** Answers true when it answered `req` itself; false leaves it to the lane and Next. */
export type FrontDoor = (req: IncomingMessage, res: ServerResponse) => boolean;

/** Where the front door is installed for scripts/server.mjs (globalThis: the server is not bundled). */
export const FRONT_DOOR_SLOT = Symbol.for("switchboard.frontDoor");

/** What the front door checks against. */
export interface FrontDoorOptions {
  /** Proxies whose `X-Forwarded-For` is believed. Default: `SWITCHBOARD_TRUSTED_PROXIES` (none when unset). */
  trusted?: BlockList;
  /** The largest body a request may declare. Default: `SWITCHBOARD_MAX_BODY_BYTES` (lib/http.ts). */
  maxBodyBytes?: number;
}

/** Install the front door from the environment; throws when `SWITCHBOARD_TRUSTED_PROXIES` is malformed. */
export function installFrontDoor(): void {
  (globalThis as { [FRONT_DOOR_SLOT]?: FrontDoor })[FRONT_DOOR_SLOT] = createFrontDoor();
}

/** The front door for `options`. */
export function createFrontDoor(options: FrontDoorOptions = {}): FrontDoor {
  const trusted = options.trusted ?? parseTrustedProxies(trustedProxiesSetting());
  const cap = options.maxBodyBytes ?? maxBodyBytes();
  return (req, res) => {
    stampClientAddress(req, trusted);
    if (Number(req.headers["content-length"]) > cap) {
      tooLarge(res, cap);
      return true;
    }
    return false;
  };
}

// Answered without reading the body, and the connection closed after it: keeping it alive would make
// Node read (and discard) the whole declared body first.
function tooLarge(res: ServerResponse, cap: number): void {
  const body = JSON.stringify({ code: "request.too_large", message: `The request body is larger than ${cap} bytes.` });
  const headers = new Headers({ "content-type": "application/json", "cache-control": "no-store", connection: "close" });
  applySecurityHeaders(headers, { csp: "default-src 'none'; frame-ancestors 'none'", https: false });
  const head: Record<string, string> = {};
  headers.forEach((value, name) => {
    head[name] = value;
  });
  head["content-length"] = String(Buffer.byteLength(body));
  res.writeHead(413, head).end(body);
}
