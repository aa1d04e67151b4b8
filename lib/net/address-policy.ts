/**
 * The SSRF address policy (docs/security.md#ssrf-guard): which destination addresses a server-side request may
 * reach, and the operator's allow-list (`SWITCHBOARD_ALLOWED_HOSTS`) that opens named internal
 * hosts. Pure: callers resolve names; this module only judges addresses and names.
 */
import { BlockList } from "node:net";
import { domainToASCII } from "node:url";
import { AllowListError } from "./errors";
import { expandIpv6, ipv4FromBytes, parseIpLiteral, type IpAddress } from "./ip-literal";

/** Why an address is blocked; stable identifiers for tests and logs. */
export type BlockCategory =
  | "loopback"
  | "unspecified"
  | "private"
  | "link-local"
  | "cgnat"
  | "unique-local"
  | "site-local"
  | "multicast"
  | "broadcast"
  | "reserved"
  | "benchmarking"
  | "documentation"
  | "not-an-ip";

/** The policy's answer for one address. `reason` reads after the address: "127.0.0.1 is loopback". */
export type AddressVerdict =
  | { blocked: false; address: IpAddress }
  | { blocked: true; address: IpAddress | null; category: BlockCategory; reason: string };

interface Range {
  category: BlockCategory;
  label: string;
  list: BlockList;
}

function range(category: BlockCategory, label: string, family: "ipv4" | "ipv6", cidrs: string[]): Range {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [network, prefix] = cidr.split("/");
    list.addSubnet(network, Number(prefix), family);
  }
  return { category, label, list };
}

// Order matters only where ranges nest: broadcast sits inside 240/4.
const IPV4_RANGES: Range[] = [
  range("unspecified", "unspecified (0.0.0.0/8 reaches this host)", "ipv4", ["0.0.0.0/8"]),
  range("loopback", "loopback", "ipv4", ["127.0.0.0/8"]),
  range("private", "private (RFC 1918)", "ipv4", ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"]),
  range("link-local", "link-local (cloud metadata)", "ipv4", ["169.254.0.0/16"]),
  range("cgnat", "carrier-grade NAT shared space", "ipv4", ["100.64.0.0/10"]),
  range("reserved", "reserved for IETF protocol assignments", "ipv4", ["192.0.0.0/24"]),
  range("reserved", "reserved (6to4 relay anycast)", "ipv4", ["192.88.99.0/24"]),
  range("documentation", "documentation-only", "ipv4", ["192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/24"]),
  range("benchmarking", "benchmarking-only", "ipv4", ["198.18.0.0/15"]),
  range("multicast", "multicast", "ipv4", ["224.0.0.0/4"]),
  range("broadcast", "broadcast", "ipv4", ["255.255.255.255/32"]),
  range("reserved", "reserved (240.0.0.0/4)", "ipv4", ["240.0.0.0/4"]),
];

const IPV6_RANGES: Range[] = [
  range("loopback", "loopback", "ipv6", ["::1/128"]),
  range("unspecified", "unspecified (:: reaches this host)", "ipv6", ["::/128"]),
  range("link-local", "link-local", "ipv6", ["fe80::/10"]),
  range("site-local", "site-local (deprecated, internal)", "ipv6", ["fec0::/10"]),
  range("unique-local", "unique-local (internal)", "ipv6", ["fc00::/7"]),
  range("multicast", "multicast", "ipv6", ["ff00::/8"]),
  range("documentation", "documentation-only", "ipv6", ["2001:db8::/32", "3fff::/20"]),
  range("benchmarking", "benchmarking-only", "ipv6", ["2001:2::/48"]),
  range("reserved", "reserved (discard-only)", "ipv6", ["100::/64"]),
  range("reserved", "reserved (local-use NAT64)", "ipv6", ["64:ff9b:1::/48"]),
  // Teredo hides the real IPv4 peer (obfuscated) behind a relay; no server needs it.
  range("reserved", "reserved (Teredo tunnel)", "ipv6", ["2001::/32"]),
];

/** Everything outside global unicast 2000::/3 is reserved, so unknown future ranges stay closed. */
const IPV6_GLOBAL_UNICAST = range("reserved", "", "ipv6", ["2000::/3"]).list;

/** IPv6 forms that carry an IPv4 address inside; the embedded address is judged as IPv4. */
function embeddedIpv4(address: IpAddress): { v4: IpAddress; via: string } | null {
  const b = address.bytes;
  const zero = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (zero(0, 10) && b[10] === 0xff && b[11] === 0xff) return { v4: ipv4FromBytes(b.slice(12)), via: "IPv4-mapped" };
  if (zero(0, 8) && b[8] === 0xff && b[9] === 0xff && zero(10, 12)) {
    return { v4: ipv4FromBytes(b.slice(12)), via: "IPv4-translated" };
  }
  // ::/96 minus :: and ::1, which are judged as themselves.
  if (zero(0, 12) && !zero(12, 15)) return { v4: ipv4FromBytes(b.slice(12)), via: "IPv4-compatible" };
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zero(4, 12)) {
    return { v4: ipv4FromBytes(b.slice(12)), via: "NAT64" };
  }
  if (b[0] === 0x20 && b[1] === 0x02) return { v4: ipv4FromBytes(b.slice(2, 6)), via: "6to4" };
  return null;
}

function classifyIpv4(address: IpAddress): AddressVerdict {
  for (const r of IPV4_RANGES) {
    if (r.list.check(address.text, "ipv4")) {
      return { blocked: true, address, category: r.category, reason: r.label };
    }
  }
  return { blocked: false, address };
}

/**
 * Judge one address (parsed or any literal spelling). IPv6 forms embedding IPv4 (mapped,
 * compatible, NAT64, 6to4) are judged by the IPv4 inside, so `::ffff:127.0.0.1` is loopback.
 */
export function classifyAddress(input: IpAddress | string): AddressVerdict {
  const address = typeof input === "string" ? parseIpLiteral(input) : input;
  if (!address) return { blocked: true, address: null, category: "not-an-ip", reason: "not an IP address" };
  if (address.family === 4) return classifyIpv4(address);
  const inner = embeddedIpv4(address);
  if (inner) {
    const verdict = classifyIpv4(inner.v4);
    if (verdict.blocked) {
      return { ...verdict, address, reason: `${verdict.reason} (${inner.via} ${inner.v4.text})` };
    }
    // IPv4-compatible addresses are deprecated (RFC 4291 §2.5.5.1) and never routed publicly.
    if (inner.via === "IPv4-compatible") {
      return { blocked: true, address, category: "reserved", reason: `reserved (deprecated IPv4-compatible ${inner.v4.text})` };
    }
    return { blocked: false, address };
  }
  const expanded = expandIpv6(address);
  for (const r of IPV6_RANGES) {
    if (r.list.check(expanded, "ipv6")) return { blocked: true, address, category: r.category, reason: r.label };
  }
  if (!IPV6_GLOBAL_UNICAST.check(expanded, "ipv6")) {
    return { blocked: true, address, category: "reserved", reason: "reserved (outside global unicast 2000::/3)" };
  }
  return { blocked: false, address };
}

/** `localhost` and `*.localhost` always mean this machine (RFC 6761 §6.3), whatever DNS says. */
export function isLocalhostName(hostname: string): boolean {
  const name = normalizeHostname(hostname);
  return name === "localhost" || name.endsWith(".localhost");
}

/** Lower-case, punycode, no trailing dot, no brackets: the form host comparisons use. */
export function normalizeHostname(hostname: string): string {
  let name = hostname.trim().toLowerCase();
  if (name.startsWith("[") && name.endsWith("]")) name = name.slice(1, -1);
  if (name.endsWith(".")) name = name.slice(0, -1);
  return name.includes(":") ? name : domainToASCII(name) || name;
}

/** One CIDR of an allow-list, with its canonical network text. */
export interface AllowedNetwork {
  readonly family: 4 | 6;
  readonly network: string;
  readonly prefix: number;
}

/** An operator allow-list: names opened whatever they resolve to, and networks opened by address. */
export interface AllowList {
  readonly hosts: ReadonlySet<string>;
  readonly networks: readonly AllowedNetwork[];
}

/** The empty allow-list: nothing internal is reachable. */
export const EMPTY_ALLOW_LIST: AllowList = { hosts: new Set(), networks: [] };

/**
 * Parse a comma-separated allow-list (`SWITCHBOARD_ALLOWED_HOSTS`): host names, IP addresses
 * (any spelling; become /32 or /128) and CIDRs. Throws AllowListError naming a bad entry.
 */
export function parseAllowedHosts(text: string | undefined): AllowList {
  const hosts = new Set<string>();
  const networks: AllowedNetwork[] = [];
  for (const raw of (text ?? "").split(",")) {
    const entry = raw.trim();
    if (!entry) continue;
    const slash = entry.indexOf("/");
    const address = parseIpLiteral(slash >= 0 ? entry.slice(0, slash) : entry);
    if (address) {
      const max = address.family === 4 ? 32 : 128;
      const prefixText = slash >= 0 ? entry.slice(slash + 1) : String(max);
      const prefix = /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
      if (!(prefix >= 0 && prefix <= max)) {
        throw new AllowListError(`allowed hosts: "${entry}" has an invalid prefix length (0–${max})`);
      }
      networks.push({ family: address.family, network: address.text, prefix });
      continue;
    }
    const name = normalizeHostname(entry);
    // Ports, paths, wildcards and schemes are not supported: an entry opens a host, nothing finer.
    if (slash >= 0 || !/^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/.test(name)) {
      throw new AllowListError(`allowed hosts: "${entry}" is neither a host name, an IP address nor a CIDR`);
    }
    hosts.add(name);
  }
  return { hosts, networks };
}

const compiled = new WeakMap<AllowList, BlockList>();

function networkList(list: AllowList): BlockList {
  let blockList = compiled.get(list);
  if (!blockList) {
    blockList = new BlockList();
    for (const n of list.networks) blockList.addSubnet(n.network, n.prefix, n.family === 4 ? "ipv4" : "ipv6");
    compiled.set(list, blockList);
  }
  return blockList;
}

/** True when `hostname` is named in the allow-list (exact match after normalization). */
export function isHostAllowListed(list: AllowList, hostname: string): boolean {
  return list.hosts.has(normalizeHostname(hostname));
}

/**
 * True when `address` lies in an allowed network. An IPv6 form embedding IPv4 also matches the
 * IPv4 networks, so allowing 127.0.0.1 allows `::ffff:127.0.0.1` too (same destination).
 */
export function isAddressAllowListed(list: AllowList, address: IpAddress): boolean {
  if (list.networks.length === 0) return false;
  const blockList = networkList(list);
  if (address.family === 4) return blockList.check(address.text, "ipv4");
  if (blockList.check(expandIpv6(address), "ipv6")) return true;
  const inner = embeddedIpv4(address);
  return inner !== null && blockList.check(inner.v4.text, "ipv4");
}
