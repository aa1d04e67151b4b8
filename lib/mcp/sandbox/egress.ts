/**
 * `network: true` without the host: the sandbox gets its own network namespace whose only way out
 * is slirp4netns (user-mode TCP/IP, connecting from the host on the sandbox's behalf) with the
 * host's loopback disabled, and routes that make private, link-local, CGNAT and metadata ranges
 * and the host's own public addresses unreachable. DNS goes through slirp's forwarder.
 */
import { access } from "node:fs/promises";
import { networkInterfaces } from "node:os";

/** Ranges a sandbox with `network: true` must never reach (the host's own addresses are added). */
export const BLOCKED_RANGES = [
  "0.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.0.0.0/24",
  "192.168.0.0/16",
  "198.18.0.0/15",
  "224.0.0.0/4",
  "240.0.0.0/4",
];

/** slirp4netns's DNS forwarder inside the namespace (10.0.2.0/24 stays on-link, so it is reachable). */
export const SLIRP_DNS = "10.0.2.3";

/** The programs the egress setup runs on the host side, by absolute path. */
export const EGRESS_TOOLS = {
  slirp4netns: "/usr/bin/slirp4netns",
  unshare: "/usr/bin/unshare",
  ip: ["/usr/sbin/ip", "/usr/bin/ip", "/sbin/ip", "/bin/ip"],
};

/** The routes to make unreachable: the ranges plus each IPv4 address of this host. */
export function blockedRoutes(hostAddresses: string[] = ownIPv4Addresses()): string[] {
  return [...BLOCKED_RANGES, ...hostAddresses.map((address) => `${address}/32`)];
}

function ownIPv4Addresses(): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .flatMap((entry) => (entry && entry.family === "IPv4" ? [entry.address] : []));
}

/** The `ip` executable, or null when slirp4netns, unshare or ip is missing (network: true is then refused). */
export async function egressToolsAvailable(): Promise<{ ip: string } | null> {
  const ok = (file: string) =>
    access(file).then(
      () => true,
      () => false,
    );
  if (!(await ok(EGRESS_TOOLS.slirp4netns)) || !(await ok(EGRESS_TOOLS.unshare))) return null;
  for (const ip of EGRESS_TOOLS.ip) if (await ok(ip)) return { ip };
  return null;
}
