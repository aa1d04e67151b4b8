/**
 * The client address of a request, as the sign-in and sign-up throttles count it: the socket's peer,
 * unless that peer is a proxy the operator trusts (`SWITCHBOARD_TRUSTED_PROXIES`), and then the
 * right-most `X-Forwarded-For` hop that is not itself a trusted proxy (each proxy appends the address
 * it saw, so everything left of the first untrusted hop is the client's to choose). The app's HTTP
 * server stamps the result on every request before anything else reads it (lib/lane/front-door.ts).
 */
import type { IncomingMessage } from "node:http";
import { BlockList, isIP } from "node:net";

/** The request header the front door sets (any value the client sent is replaced). */
export const CLIENT_ADDRESS_HEADER = "x-switchboard-client-address";

// Set once the app's own HTTP server has stamped a request: only then is the header ours. Under
// `next dev` (no front door) a client could send it, so it is not read at all.
const STAMPED = Symbol.for("switchboard.clientAddressStamped");

/** An address in the form the throttles key on: IPv4-mapped IPv6 as IPv4, no brackets, no port, no zone. */
export function normaliseAddress(text: string): string {
  let value = text.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed) value = bracketed[1];
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(value)) value = value.slice(0, value.lastIndexOf(":"));
  value = value.replace(/%.*$/, "").toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(\.\d{1,3}){3})$/.exec(value);
  return mapped ? mapped[1] : value;
}

/** `SWITCHBOARD_TRUSTED_PROXIES` has an entry that is neither an address nor a CIDR range. */
export class TrustedProxiesError extends Error {
  constructor(entry: string) {
    super(`SWITCHBOARD_TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR range (e.g. 10.0.0.5, 10.0.0.0/8, ::1).`);
    this.name = "TrustedProxiesError";
  }
}

/**
 * The trusted proxies of `text`: comma-separated addresses and CIDR ranges (`10.0.0.0/8`, `::1`).
 * Throws naming the variable and the entry when one is neither.
 */
export function parseTrustedProxies(text: string | undefined): BlockList {
  const list = new BlockList();
  for (const entry of (text ?? "").split(",").map((part) => part.trim())) {
    if (!entry) continue;
    const [address, bits, extra] = entry.split("/");
    const family = isIP(normaliseAddress(address));
    const prefix = bits === undefined ? undefined : Number(bits);
    const validPrefix = prefix === undefined || (Number.isInteger(prefix) && prefix >= 0 && prefix <= (family === 4 ? 32 : 128));
    if (!family || extra !== undefined || !validPrefix || bits === "") {
      throw new TrustedProxiesError(entry);
    }
    const type = family === 4 ? "ipv4" : "ipv6";
    if (prefix === undefined) list.addAddress(normaliseAddress(address), type);
    else list.addSubnet(normaliseAddress(address), prefix, type);
  }
  return list;
}

/** Whether `address` (any form `normaliseAddress` takes) is in `trusted`. */
function isTrusted(address: string, trusted: BlockList): boolean {
  const family = isIP(address);
  return family !== 0 && trusted.check(address, family === 4 ? "ipv4" : "ipv6");
}

/**
 * The client address: `peer` unless it is trusted, then the right-most untrusted hop of
 * `forwardedFor` (every `X-Forwarded-For` header, in order); when every hop is trusted, the left-most.
 */
export function resolveClientAddress(peer: string | undefined, forwardedFor: string | string[] | undefined, trusted: BlockList): string {
  const socket = peer ? normaliseAddress(peer) : "unknown";
  if (!isTrusted(socket, trusted)) return socket;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(",") : (forwardedFor ?? ""))
    .split(",")
    .map(normaliseAddress)
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) if (!isTrusted(hops[i], trusted)) return hops[i];
  return hops[0] ?? socket;
}

/**
 * Put the client address of `req` in `CLIENT_ADDRESS_HEADER`, replacing whatever the client sent
 * there, in both header views (`headers` for Next, `rawHeaders` for the direct lane).
 */
export function stampClientAddress(req: IncomingMessage, trusted: BlockList): void {
  const address = resolveClientAddress(req.socket.remoteAddress, req.headers["x-forwarded-for"], trusted);
  const raw = req.rawHeaders;
  for (let i = raw.length - 2; i >= 0; i -= 2) if (raw[i].toLowerCase() === CLIENT_ADDRESS_HEADER) raw.splice(i, 2);
  raw.push(CLIENT_ADDRESS_HEADER, address);
  req.headers[CLIENT_ADDRESS_HEADER] = address;
  (globalThis as { [STAMPED]?: boolean })[STAMPED] = true;
}

/**
 * The client address the front door stamped on a request's headers, or "unknown" when no front door
 * runs (`next dev`, a handler called directly): then every such request shares one address bucket.
 */
export function stampedClientAddress(headers: Headers | Record<string, string | string[] | undefined>): string {
  if (!(globalThis as { [STAMPED]?: boolean })[STAMPED]) return "unknown";
  const raw = headers instanceof Headers ? headers.get(CLIENT_ADDRESS_HEADER) : headers[CLIENT_ADDRESS_HEADER];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return value?.trim() || "unknown";
}
