/**
 * The bubblewrap command line of a sandboxed stdio server, built from a plan without touching the
 * host (the effects live in `wrapper.ts`). Every flag is here on purpose; see the comments.
 */
import path from "node:path";
import type { SandboxIdentity } from "./identity";
import { prlimitOptions, type SandboxLimits } from "./limits";
import { isWithin, SANDBOX_HOME, SANDBOX_TMP } from "./paths";

/** util-linux and the shell, at the paths they have inside the sandbox (under the shared /usr). */
export const SANDBOX_TOOLS = { setpriv: "/usr/bin/setpriv", prlimit: "/usr/bin/prlimit", sh: "/bin/sh" } as const;

const CWD_SCRIPT = 'mkdir -p -- "$1" && cd -- "$1" && unset OLDPWD && shift && exec "$@"';

/** A top-level system entry of the host (`/bin`, `/lib64`…): a directory, or a symlink into /usr. */
export interface RootEntry {
  path: string;
  symlinkTo?: string;
}

/** A host path shared read-only at `dest` inside the sandbox. */
export interface ReadOnlyBind {
  source: string;
  dest: string;
}

/** Everything `buildBwrapArgs` needs; host facts are gathered by the caller. */
export interface SandboxPlan {
  identity: SandboxIdentity;
  network: boolean;
  /** Host `/bin`, `/sbin`, `/lib*` entries (merged-/usr systems have symlinks). */
  rootLayout: RootEntry[];
  /** Host directory mounted writable as HOME (when `limits.homeBytes` is null, or `homeImage`). */
  hostHome: string;
  /** The launcher mounts the size-capped home image on `hostHome` first (see launcher.ts). */
  homeImage?: boolean;
  /** A generated resolv.conf to use instead of the host's (the egress namespace's DNS). */
  resolvConf?: string;
  /** Host files mounted as the sandbox's /etc/passwd and /etc/group. */
  identityFiles: { passwd: string; group: string };
  /** Executable install dirs, node_modules and the config's `read_only_paths`. */
  readOnlyBinds: ReadOnlyBind[];
  env: Record<string, string>;
  /** Working directory inside the sandbox (see `resolveSandboxCwd`). */
  cwd: string;
  limits: SandboxLimits;
  /** bubblewrap as seen inside the sandbox (under /usr, or shared by the caller). */
  bwrapInside: string;
  /** The inherited fd holding the seccomp program (lib/mcp/sandbox/seccomp.ts); none = no filter. */
  seccompFd?: number;
  command: string;
  args: string[];
}

// Only what name resolution, TLS, the dynamic linker and time zones read. The rest of /etc
// (shadow, ssh host keys, the app's own config) stays out; /etc/passwd is generated.
const ETC_FILES = [
  "/etc/resolv.conf",
  "/etc/hosts",
  "/etc/host.conf",
  "/etc/nsswitch.conf",
  "/etc/gai.conf",
  "/etc/services",
  "/etc/protocols",
  "/etc/ld.so.cache",
  "/etc/ld.so.conf",
  "/etc/ld.so.conf.d",
  "/etc/alternatives",
  "/etc/localtime",
  "/etc/timezone",
  "/etc/ssl/certs",
  "/etc/ssl/openssl.cnf",
  "/etc/ca-certificates",
  "/etc/ca-certificates.conf",
  "/etc/mime.types",
  "/etc/os-release",
];

/**
 * Namespace flags. As root: no user namespace, because a namespace created by root maps to
 * kernel uid 0, which RLIMIT_NPROC exempts; the server is dropped to its own uid instead.
 * Unprivileged: `--unshare-all` including a user namespace, with nested ones disabled.
 */
export function namespaceArgs(identity: SandboxIdentity, network: boolean): string[] {
  const args =
    identity.kind === "drop"
      ? ["--unshare-ipc", "--unshare-pid", "--unshare-uts", "--unshare-cgroup-try", ...(network ? [] : ["--unshare-net"])]
      : ["--unshare-all", "--unshare-user", "--disable-userns", ...(network ? ["--share-net"] : [])];
  // --die-with-parent: the engine kills bwrap's process group on close, and the sandbox
  // (in its own session) must die with it. --new-session: no TIOCSTI into the host terminal.
  return [...args, "--die-with-parent", "--new-session", "--hostname", "sandbox"];
}

/** Read-only system directories, fresh /proc (of the new PID namespace) and a minimal /dev. */
export function systemMountArgs(rootLayout: RootEntry[]): string[] {
  const args = ["--ro-bind", "/usr", "/usr"];
  for (const entry of rootLayout) {
    if (entry.symlinkTo !== undefined) args.push("--symlink", entry.symlinkTo, entry.path);
    else args.push("--ro-bind", entry.path, entry.path);
  }
  args.push("--proc", "/proc", "--dev", "/dev");
  return args;
}

/**
 * The program bwrap starts: drop to the sandbox uid (as root), apply the limits, then exec
 * `command`. `bwrapInside` is bubblewrap's path inside the sandbox, `chdir` the start directory.
 */
export function commandTail(
  identity: SandboxIdentity,
  limits: SandboxLimits,
  bwrapInside: string,
  chdir: string,
  seccompFd?: number,
): string[] {
  const limitArgs = [SANDBOX_TOOLS.prlimit, ...prlimitOptions(limits), "--"];
  // The filter goes on the bubblewrap that starts the server: the inner one, which itself needs
  // mount and pivot_root to build its view; as the app's own user there is only the outer one.
  const seccomp = seccompFd === undefined ? [] : ["--seccomp", String(seccompFd)];
  if (identity.kind === "self") return [...seccomp, "--", ...limitArgs];
  return [
    // Only for setpriv: it needs them to change uid and empty the bounding set; a non-root uid
    // then has no capabilities left, and no_new_privs stops any from coming back on exec.
    "--cap-add",
    "CAP_SETUID",
    "--cap-add",
    "CAP_SETGID",
    "--cap-add",
    "CAP_SETPCAP",
    "--",
    SANDBOX_TOOLS.setpriv,
    `--reuid=${identity.uid}`,
    `--regid=${identity.gid}`,
    "--clear-groups",
    "--inh-caps=-all",
    "--bounding-set=-all",
    "--no-new-privs",
    "--",
    ...limitArgs,
    // The outer sandbox has no user namespace (see namespaceArgs), so the server could create
    // its own and reach kernel code (netfilter, mounts) that unprivileged users otherwise cannot.
    // An unprivileged inner bwrap takes the same view and forbids further user namespaces.
    bwrapInside,
    "--unshare-user",
    "--disable-userns",
    "--dev-bind",
    "/",
    "/",
    "--die-with-parent",
    ...seccomp,
    "--chdir",
    chdir,
    "--",
  ];
}

/** The full bubblewrap argv (without the bwrap executable itself) for a plan. */
export function buildBwrapArgs(plan: SandboxPlan): string[] {
  const args = [...namespaceArgs(plan.identity, plan.network)];

  // Exactly the planned environment: bwrap's own environment (whatever the spawner added) is
  // dropped. bwrap adds PWD (the sandbox cwd) itself.
  args.push("--clearenv");
  for (const [name, value] of Object.entries(plan.env)) args.push("--setenv", name, value);

  args.push(...systemMountArgs(plan.rootLayout));
  const mounted = ["/usr"];
  const made = new Set<string>();
  // Directories bwrap creates on its own are mode 0700 when it runs as root, which would lock
  // the unprivileged server out of its own mounts.
  const makeParents = (dest: string, includeSelf = false) => {
    const parts = dest.split("/").filter(Boolean);
    const upto = includeSelf ? parts.length : parts.length - 1;
    for (let i = 1; i <= upto; i++) {
      const dir = `/${parts.slice(0, i).join("/")}`;
      if (made.has(dir) || mounted.some((root) => isWithin(root, dir))) continue;
      args.push("--perms", "0755", "--dir", dir);
      made.add(dir);
    }
  };

  makeParents("/etc", true);
  for (const file of ETC_FILES) {
    makeParents(file);
    args.push("--ro-bind-try", file, file);
  }
  args.push("--ro-bind", plan.identityFiles.passwd, "/etc/passwd", "--ro-bind", plan.identityFiles.group, "/etc/group");
  if (plan.resolvConf) args.push("--ro-bind", plan.resolvConf, "/etc/resolv.conf");

  args.push("--size", String(Math.floor(plan.limits.tmpBytes)), "--perms", "1777", "--tmpfs", SANDBOX_TMP);
  made.add(SANDBOX_TMP);
  makeParents(SANDBOX_HOME);
  // With an image, the launcher has mounted the capped filesystem on hostHome by now.
  if (plan.limits.homeBytes === null || plan.homeImage) args.push("--bind", plan.hostHome, SANDBOX_HOME);
  // Without one (not root, tools missing), a capped home is a private tmpfs: writes count against
  // RAM and the sandbox's memory group, never the disk the database lives on.
  else args.push("--size", String(Math.floor(plan.limits.homeBytes)), "--perms", "1777", "--tmpfs", SANDBOX_HOME);

  // Parents before children, so a nested share is not hidden by its parent's mount.
  const binds = [...plan.readOnlyBinds].sort((a, b) => depth(a.dest) - depth(b.dest));
  for (const bind of binds) {
    if (!isWithin(SANDBOX_HOME, bind.dest)) makeParents(bind.dest);
    args.push("--ro-bind", bind.source, bind.dest);
    mounted.push(bind.dest);
  }

  // The root tmpfs holds only mount points; read-only so it cannot be filled (it is RAM).
  args.push("--remount-ro", "/");

  const startsInHome = isWithin(SANDBOX_HOME, plan.cwd) && plan.cwd !== SANDBOX_HOME;
  const chdir = startsInHome ? SANDBOX_HOME : plan.cwd;
  args.push("--chdir", chdir);
  args.push(...commandTail(plan.identity, plan.limits, plan.bwrapInside, chdir, plan.seccompFd));
  if (startsInHome) {
    // Created by the server's own uid inside the sandbox: a root mkdir on the host could be
    // steered through symlinks the server planted in its home.
    // `cd` also exports OLDPWD; PWD stays, as bwrap's --chdir sets it in every other case.
    args.push(SANDBOX_TOOLS.sh, "-c", CWD_SCRIPT, "sandbox-cwd", plan.cwd);
  }
  args.push(plan.command, ...plan.args);
  return args;
}

function depth(p: string): number {
  return path.posix.normalize(p).split("/").filter(Boolean).length;
}
