/**
 * Which uid a sandbox runs as. RLIMIT_NPROC is never enforced for root (kernel uid 0 is exempt
 * even inside a user namespace), so a root host drops every sandbox to its own unprivileged uid;
 * a non-root host runs bubblewrap unprivileged in a user namespace, where the kernel counts
 * processes per namespace and the limit holds per sandbox.
 */
import { createHash } from "node:crypto";
import { SANDBOX_HOME } from "./paths";

/** How the sandboxed process gets its identity. */
export type SandboxIdentity =
  | { kind: "drop"; uid: number; gid: number } // host is root: bwrap privileged, setpriv to uid inside
  | { kind: "self"; uid: number; gid: number }; // host is not root: bwrap unprivileged, user namespace

// 2^30 uids above 2^30: far from login users, subordinate-id ranges (100000+) and nobody (65534).
const UID_BASE = 0x40000000;
const UID_SPAN = 0x3fffffff;

/**
 * A stable unprivileged uid for (user, server). Distinct sandboxes get distinct uids (a collision
 * only makes two sandboxes share a process budget: their files and processes stay apart).
 */
export function sandboxUid(userId: string, serverId: string): number {
  const digest = createHash("sha256").update(`${userId}\0${serverId}`).digest();
  return UID_BASE + (digest.readUInt32BE(0) % UID_SPAN);
}

/** The identity for a launch on this host: per-sandbox uid as root, the host's own uid otherwise. */
export function identityFor(userId: string, serverId: string, hostUid: number, hostGid: number): SandboxIdentity {
  if (hostUid === 0) {
    const uid = sandboxUid(userId, serverId);
    return { kind: "drop", uid, gid: uid };
  }
  return { kind: "self", uid: hostUid, gid: hostGid };
}

/**
 * The sandbox's `/etc/passwd` and `/etc/group`: the host's list of accounts stays hidden, and the
 * server's own uid resolves (Node's `os.userInfo()` and many tools fail for an unknown uid).
 */
export function identityFiles(identity: SandboxIdentity): { passwd: string; group: string } {
  const { uid, gid } = identity;
  return {
    passwd: `root:x:0:0:root:/root:/usr/sbin/nologin\nsandbox:x:${uid}:${gid}:sandbox:${SANDBOX_HOME}:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n`,
    group: `root:x:0:\nsandbox:x:${gid}:\nnogroup:x:65534:\n`,
  };
}
