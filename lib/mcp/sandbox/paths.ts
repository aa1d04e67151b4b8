/**
 * Path rules of the sandbox: where the private home lives on the host and inside, how `cwd` is
 * interpreted, and which host paths may never be shared into a sandbox.
 */
import path from "node:path";
import { SandboxRefusedError } from "./errors";

/** The private home as the server sees it; `HOME` points here. */
export const SANDBOX_HOME = "/home/sandbox";
/** The private tmpfs; `TMPDIR` points here. */
export const SANDBOX_TMP = "/tmp";

// Ids become directory names under <dataDir>/sandboxes: one segment, never "." or "..".
const SAFE_SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}$/;

// Sharing these would hand the server the host's processes, devices or service sockets
// (e.g. the D-Bus system bus under /run), whatever the administrator intended.
const NEVER_SHARED = ["/proc", "/sys", "/dev", "/run", "/var/run"];

/** True when `child` is `parent` or lies below it (both absolute and normalised). */
export function isWithin(parent: string, child: string): boolean {
  if (parent === "/") return true;
  return child === parent || child.startsWith(`${parent}/`);
}

/** True when one path contains the other. */
export function overlaps(a: string, b: string): boolean {
  return isWithin(a, b) || isWithin(b, a);
}

/** The host directory of a (user, server) home: `<dataDir>/sandboxes/<userId>/<serverId>`. */
export function hostHomeDir(dataDir: string, userId: string, serverId: string): string {
  assertSafeSegment(userId, "user id");
  assertSafeSegment(serverId, "server id");
  return path.join(dataDir, "sandboxes", userId, serverId);
}

function assertSafeSegment(value: string, what: string): void {
  if (!SAFE_SEGMENT.test(value) || value === "." || value === "..") {
    throw new SandboxRefusedError(
      "identity",
      `The ${what} ${JSON.stringify(value)} cannot name a sandbox directory (letters, digits, "_", "-", "." only).`,
    );
  }
}

/** Normalise an administrator-listed read-only path: absolute, no `..` segments, no trailing slash. */
export function normaliseSharedPath(configured: string): string {
  if (!path.posix.isAbsolute(configured) || configured.split("/").includes("..")) {
    throw new SandboxRefusedError("path", `read_only_paths entry ${JSON.stringify(configured)} must be an absolute path without "..".`);
  }
  const normalised = path.posix.normalize(configured);
  return normalised.length > 1 ? normalised.replace(/\/+$/, "") : normalised;
}

/**
 * Check a normalised read-only path (config `read_only_paths`) and where it resolves on the host
 * (`realPath`, symlinks followed): no pseudo-filesystem or service-socket tree, no clash with the
 * sandbox's own mounts, no overlap with a protected path.
 */
export function assertShareable(shared: string, realPath: string, protectedPaths: string[]): void {
  for (const candidate of [shared, realPath]) {
    if (candidate === "/" || NEVER_SHARED.some((root) => isWithin(root, candidate))) {
      throw new SandboxRefusedError("path", `read_only_paths entry ${JSON.stringify(shared)} may not be shared into a sandbox.`);
    }
  }
  // A share below /tmp is fine (it is mounted on top of the private tmpfs); /tmp itself is not.
  if (overlaps(shared, SANDBOX_HOME) || isWithin(shared, SANDBOX_TMP)) {
    throw new SandboxRefusedError("path", `read_only_paths entry ${JSON.stringify(shared)} collides with the sandbox's own home or /tmp.`);
  }
  assertNotProtected(realPath, `read_only_paths entry ${JSON.stringify(shared)}`, protectedPaths);
}

/** Refuse a host path that contains or lies inside a protected path (the data directory, key files). */
export function assertNotProtected(hostPath: string, what: string, protectedPaths: string[]): void {
  const hit = protectedPaths.find((guarded) => overlaps(guarded, hostPath));
  if (hit !== undefined) {
    throw new SandboxRefusedError(
      "path",
      `${what} (${hostPath}) overlaps the application's protected data (${hit}) and cannot be shared into a sandbox.`,
    );
  }
}

/**
 * Where the server starts, inside the sandbox. Relative `cwd` is taken inside the sandbox home;
 * an absolute `cwd` must lie in the home or in a shared read-only path. `..` may not leave them.
 */
export function resolveSandboxCwd(cwd: string | undefined, readOnlyPaths: string[]): string {
  if (cwd === undefined || cwd === "" || cwd === ".") return SANDBOX_HOME;
  const resolved = path.posix.resolve(SANDBOX_HOME, cwd);
  const roots = [SANDBOX_HOME, ...readOnlyPaths];
  if (!roots.some((root) => isWithin(root, resolved))) {
    throw new SandboxRefusedError(
      "cwd",
      `cwd ${JSON.stringify(cwd)} resolves to ${resolved}, outside the sandbox home and the shared read-only paths.`,
    );
  }
  return resolved;
}
