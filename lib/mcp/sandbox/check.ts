/**
 * Is the sandbox usable on this host? Runs bubblewrap once with the same namespace, mount and
 * identity flags real launches use, and remembers the answer.
 */
import { execFile } from "node:child_process";
import { access } from "node:fs/promises";
import { constants } from "node:fs";
import path from "node:path";
import { searchPath } from "../../env";
import { commandTail, namespaceArgs, SANDBOX_TOOLS, systemMountArgs } from "./bwrap-args";
import { findExecutable, readRootLayout } from "./host-facts";
import { identityFor } from "./identity";
import { DEFAULT_LIMITS } from "./limits";

/** The outcome of `checkSandbox`; `reason` and `fix` are set when it is unavailable. */
export interface SandboxStatus {
  available: boolean;
  reason?: string;
  fix?: string;
  /** The bubblewrap executable that was verified. */
  bwrapPath?: string;
}

/** Options of `checkSandbox`. */
export interface CheckSandboxOptions {
  /** bubblewrap to use. Default: `bwrap` found on PATH or in /usr/bin. */
  bwrapPath?: string;
}

const INSTALL_FIX = "apt-get install -y bubblewrap (Debian/Ubuntu; `dnf install bubblewrap` on Fedora).";
const USERNS_FIX =
  "Allow user namespaces for bubblewrap: run Switchboard as root, or enable unprivileged user namespaces " +
  "(sysctl kernel.unprivileged_userns_clone=1; Ubuntu 24.04: an AppArmor profile for bwrap; Docker: " +
  "--security-opt seccomp=unconfined --security-opt apparmor=unconfined).";
const CHECK_TIMEOUT_MS = 10_000;
// A success holds for the life of the process; a failure is retried after a short while, so
// installing bubblewrap takes effect without a restart.
const FAILURE_TTL_MS = 10_000;

const cache = new Map<string, Promise<SandboxStatus>>();

/**
 * Verify that bubblewrap can create the sandbox here (it actually runs it once). The result is
 * cached per bubblewrap path; failures are re-checked after 10 s.
 */
export function checkSandbox(options: CheckSandboxOptions = {}): Promise<SandboxStatus> {
  const key = options.bwrapPath ?? "";
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const status = runCheck(options.bwrapPath).then((result) => {
    if (!result.available) setTimeout(() => cache.delete(key), FAILURE_TTL_MS).unref();
    return result;
  });
  cache.set(key, status);
  return status;
}

/** Forget cached results (tests, or after an administrator fixed the host). */
export function resetSandboxCheck(): void {
  cache.clear();
}

async function runCheck(explicitPath: string | undefined): Promise<SandboxStatus> {
  const bwrapPath = explicitPath ?? (await findExecutable("bwrap", `${searchPath()}:/usr/bin:/bin:/usr/local/bin`));
  if (!bwrapPath || !(await canExecute(bwrapPath))) {
    return {
      available: false,
      reason: `bubblewrap (bwrap) is not installed${explicitPath ? ` at ${explicitPath}` : ""}; stdio servers only run sandboxed.`,
      fix: INSTALL_FIX,
    };
  }
  for (const tool of [SANDBOX_TOOLS.setpriv, SANDBOX_TOOLS.prlimit]) {
    if (!(await canExecute(tool))) {
      return { available: false, reason: `${tool} (util-linux) is missing; the sandbox needs it.`, fix: "apt-get install -y util-linux" };
    }
  }
  const identity = identityFor("sandbox-check", "sandbox-check", process.getuid?.() ?? -1, process.getgid?.() ?? -1);
  const args = [
    ...namespaceArgs(identity, false),
    ...systemMountArgs(await readRootLayout()),
    ...shareOutsideUsr(bwrapPath),
    "--perms",
    "1777",
    "--tmpfs",
    "/tmp", // the nested bwrap builds its root below /tmp
    "--remount-ro",
    "/",
    ...commandTail(identity, DEFAULT_LIMITS, bwrapPath, "/"),
    "/usr/bin/true",
  ];
  const failure = await run(bwrapPath, args);
  if (failure !== null) {
    return { available: false, reason: `bubblewrap (${bwrapPath}) could not create a sandbox: ${failure}`, fix: USERNS_FIX, bwrapPath };
  }
  return { available: true, bwrapPath };
}

/** bubblewrap also runs nested inside (see commandTail); a copy outside /usr must be visible there. */
function shareOutsideUsr(file: string): string[] {
  if (file.startsWith("/usr/")) return [];
  const parts = path.dirname(file).split("/").filter(Boolean);
  const parents = parts.flatMap((_, i) => ["--perms", "0755", "--dir", `/${parts.slice(0, i + 1).join("/")}`]);
  return [...parents, "--ro-bind", file, file];
}

function run(file: string, args: string[]): Promise<string | null> {
  return new Promise((resolve) => {
    // An empty environment (Next's typings make NODE_ENV mandatory, hence the cast): the check
    // must not depend on, or leak, anything of the app's.
    const env = {} as NodeJS.ProcessEnv;
    execFile(file, args, { timeout: CHECK_TIMEOUT_MS, env, encoding: "utf8" }, (error, _stdout, stderr) => {
      if (!error) return resolve(null);
      resolve(stderr.trim() || error.message);
    });
  });
}

async function canExecute(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false; // reported by the caller as "missing"
  }
}
