/**
 * IP literal parsing in every spelling a URL host, a resolver or `inet_aton` accepts, so the
 * SSRF policy judges the address a socket would really reach (docs/security.md#ssrf-guard). Pure: no DNS, no I/O.
 */

/** An IP address reduced to its bytes (4 or 16), with a canonical text form. */
export interface IpAddress {
  readonly family: 4 | 6;
  /** Network-order bytes: 4 for IPv4, 16 for IPv6. */
  readonly bytes: Uint8Array;
  /** Canonical text: dotted quad, or RFC 5952 compressed IPv6 (no zone, no brackets). */
  readonly text: string;
}

/**
 * Parse `input` as an IP literal, or return null when it is a host name. Accepts IPv4 in the
 * WHATWG / inet_aton forms (`2130706433`, `0177.0.0.1`, `0x7f.1`, `127.1`, one trailing dot)
 * and IPv6 with or without brackets, with an embedded dotted tail and with a zone id.
 */
export function parseIpLiteral(input: string): IpAddress | null {
  let host = input.trim();
  if (host.startsWith("[") && host.endsWith("]")) host = host.slice(1, -1);
  if (host.includes(":")) return parseIpv6(host);
  return parseIpv4(host);
}

/** Build an IPv4 address from its 4 bytes. */
export function ipv4FromBytes(bytes: ArrayLike<number>): IpAddress {
  const copy = Uint8Array.from(bytes);
  return { family: 4, bytes: copy, text: copy.join(".") };
}

/** Build an IPv6 address from its 16 bytes. */
export function ipv6FromBytes(bytes: ArrayLike<number>): IpAddress {
  const copy = Uint8Array.from(bytes);
  return { family: 6, bytes: copy, text: formatIpv6(copy) };
}

/** The expanded form `net.BlockList` and comparisons want: 8 groups of 4 hex digits. */
export function expandIpv6(address: IpAddress): string {
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((address.bytes[i] << 8) | address.bytes[i + 1]).toString(16).padStart(4, "0"));
  return groups.join(":");
}

// One IPv4 part: hex with 0x (possibly empty digits, as inet_aton allows), octal with a leading
// 0, or decimal. Anything else means the host is a name, not an address.
function parseIpv4Part(part: string): number | null {
  if (/^0x[0-9a-f]*$/i.test(part)) return part.length === 2 ? 0 : parseInt(part.slice(2), 16);
  if (/^0[0-7]+$/.test(part)) return parseInt(part.slice(1), 8);
  if (/^(0|[1-9][0-9]*)$/.test(part)) return Number(part);
  return null;
}

function parseIpv4(host: string): IpAddress | null {
  const parts = host.split(".");
  if (parts.length > 1 && parts[parts.length - 1] === "") parts.pop();
  if (parts.length === 0 || parts.length > 4) return null;
  const values: number[] = [];
  for (const part of parts) {
    // Long digit strings would lose precision; no valid part needs more than 12 characters.
    if (part === "" || part.length > 12) return null;
    const value = parseIpv4Part(part);
    if (value === null || !Number.isFinite(value)) return null;
    values.push(value);
  }
  const last = values.pop() as number;
  if (values.some((v) => v > 255)) return null;
  // The last part fills all remaining bytes: `127.1` is 127.0.0.1, `2130706433` is one 32-bit value.
  const lastBytes = 4 - values.length;
  if (last >= 2 ** (8 * lastBytes)) return null;
  const bytes = [...values];
  for (let i = lastBytes - 1; i >= 0; i--) bytes.push(Math.floor(last / 2 ** (8 * i)) % 256);
  return ipv4FromBytes(bytes);
}

function parseIpv6(input: string): IpAddress | null {
  const zoneAt = input.indexOf("%");
  const host = zoneAt >= 0 ? input.slice(0, zoneAt) : input;
  if (zoneAt === 0 || host.length === 0) return null;
  let groups: string[];
  let tail: number[] = [];
  const dotted = host.match(/^(.*:)(\d{1,3}(?:\.\d{1,3}){3})$/);
  let head = host;
  if (dotted) {
    // An embedded IPv4 tail must be a strict dotted quad (RFC 4291 §2.2), unlike a bare IPv4 host.
    const parts = dotted[2].split(".");
    if (parts.some((p) => Number(p) > 255 || (p.length > 1 && p.startsWith("0")))) return null;
    tail = parts.map(Number);
    head = dotted[1].endsWith("::") ? dotted[1] : dotted[1].slice(0, -1);
  }
  const halves = head.split("::");
  if (halves.length > 2) return null;
  const parseGroups = (s: string) => (s === "" ? [] : s.split(":"));
  const tailGroups = tail.length / 2;
  if (halves.length === 2) {
    const left = parseGroups(halves[0]);
    const right = parseGroups(halves[1]);
    const missing = 8 - tailGroups - left.length - right.length;
    if (missing < 1) return null;
    groups = [...left, ...Array<string>(missing).fill("0"), ...right];
  } else {
    groups = parseGroups(head);
    if (groups.length + tailGroups !== 8) return null;
  }
  const bytes: number[] = [];
  for (const group of groups) {
    if (!/^[0-9a-f]{1,4}$/i.test(group)) return null;
    const value = parseInt(group, 16);
    bytes.push(value >> 8, value & 0xff);
  }
  bytes.push(...tail);
  return bytes.length === 16 ? ipv6FromBytes(bytes) : null;
}

// RFC 5952: lower case, longest run (>= 2) of zero groups becomes "::", the first run on a tie.
function formatIpv6(bytes: Uint8Array): string {
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((bytes[i] << 8) | bytes[i + 1]);
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) [bestStart, bestLength] = [i, j - i];
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(":");
  return `${hex.slice(0, bestStart).join(":")}::${hex.slice(bestStart + bestLength).join(":")}`;
}
