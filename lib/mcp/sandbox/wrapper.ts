/**
 * The sandbox as a `LaunchWrapper`: every stdio server runs under bubblewrap with a private home
 * per (user, server), no view of the app's data, resource limits and, unless configured, no network.
 */
import { chmod, chown, lstat, mkdir, readFile, realpath, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import type { ServerConfig } from "../config";
import type { LaunchContext, LaunchWrapper, StdioLaunch } from "../launch";
import { buildBwrapArgs, type ReadOnlyBind } from "./bwrap-args";
import { checkSandbox } from "./check";
import { SandboxRefusedError } from "./errors";
import { findExecutable, installDirs, readRootLayout } from "./host-facts";
import { identityFiles, identityFor, type SandboxIdentity } from "./identity";
import { resolveLimits, type SandboxLimits } from "./limits";
import { assertNotProtected, assertShareable, hostHomeDir, normaliseSharedPath, resolveSandboxCwd, SANDBOX_HOME } from "./paths";
import { buildSandboxEnv } from "./sandbox-env";
import { prepareGroup } from "./cgroups";
import { blockedRoutes, egressToolsAvailable, SLIRP_DNS } from "./egress";
import { launcherCommand, SECCOMP_FD, type LauncherPlan } from "./launcher";
import { seccompFile } from "./seccomp";
import { exitCauseReader } from "./exit-cause";
import { detached, prepareHomeImage } from "./home-image";

/** Options of `createSandboxWrapper`. */
export interface SandboxOptions {
  /** The app's data directory: homes live in `<dataDir>/sandboxes`; nothing else of it is shared. */
  dataDir: string;
  /** The project root: its `node_modules` is shared read-only (at its path and at `~/node_modules`). */
  projectRoot: string;
  /**
   * Default "required": refuse to start a server the sandbox cannot hold. "off" is an explicit
   * administrator override that runs stdio servers unsandboxed, with the app's own privileges.
   */
  mode?: "required" | "off";
  /** Resource limits; each omitted field takes its `DEFAULT_LIMITS` value. */
  limits?: Partial<SandboxLimits>;
  /** bubblewrap executable. Default: `bwrap` on PATH or in /usr/bin. */
  bwrapPath?: string;
  /** More host paths never to share (key files kept outside `dataDir`). Default: none. */
  protectedPaths?: string[];
  /** Where control groups are mounted. Default: `/sys/fs/cgroup`. */
  cgroupRoot?: string;
  /**
   * Whether this process may reap the host's idle control groups before a launch. Default: always.
   * The app answers with a lease per host (lib/runtime/cgroup-reaper.ts), so that of several
   * replicas on one host one reaps.
   */
  mayReapGroups?: () => Promise<boolean>;
  /**
   * Default true: the seccomp filter denies dangerous system calls (lib/mcp/sandbox/seccomp.ts).
   * `SWITCHBOARD_SANDBOX_SECCOMP=off` turns it off (a server that really needs one of them).
   */
  seccomp?: boolean;
}

/**
 * Create the sandboxing `LaunchWrapper`. With mode "required" (the default) a launch is refused
 * with a `SandboxRefusedError` when bubblewrap is missing or fails; it never falls back.
 */
export function createSandboxWrapper(options: SandboxOptions): LaunchWrapper {
  const mode = options.mode ?? "required";
  if (mode !== "required" && mode !== "off") throw new TypeError(`sandbox mode must be "required" or "off", got ${JSON.stringify(mode)}`);
  if (mode === "off") return async (launch) => launch;
  const limits = resolveLimits(options.limits);
  return async (launch, context) => {
    // Config problems first: they are the administrator's to fix whatever the host has.
    networkOf(context.config);
    const status = await checkSandbox({ bwrapPath: options.bwrapPath });
    if (!status.available || !status.bwrapPath) {
      throw new SandboxRefusedError("unavailable", `Cannot start "${context.serverName}": ${status.reason}`, status.fix);
    }
    const launcher = await planLauncher(context, options, limits);
    if (options.seccomp !== false) {
      launcher.seccomp = await seccompFile(options.dataDir);
      if (!launcher.seccomp) launcher.notEnforced.push(`the system call filter is not enforced (no table for ${process.arch})`);
    }
    const args = await planLaunch(
      launch,
      context,
      options,
      limits,
      status.bwrapPath,
      launcher.egress ? await resolvConf(options.dataDir) : undefined,
      !!launcher.home,
      launcher.seccomp ? SECCOMP_FD : undefined,
    );
    // bwrap's own environment is irrelevant (--clearenv) and its cwd is replaced by --chdir.
    const image = launcher.home?.image;
    return {
      ...launcherCommand(launcher, status.bwrapPath, args),
      cwd: "/",
      explainExit: exitCauseReader(launcher.counters, limits),
      // The home image is mounted until the sandbox's last process has gone: a placement waits for that.
      ...(image ? { released: () => detached(image) } : {}),
    };
  };
}

/** Whole-sandbox limits and, for `network: true`, the egress namespace (docs/limits.md). */
async function planLauncher(context: LaunchContext, options: SandboxOptions, limits: SandboxLimits): Promise<LauncherPlan> {
  const identity = identityFor(context.userId, context.serverId, process.getuid?.() ?? -1, process.getgid?.() ?? -1);
  const network = networkOf(context.config);
  if (identity.kind !== "drop") {
    // Without root there is no cgroup or network namespace to manage; say so where the status shows it.
    const notEnforced = ["whole-sandbox memory, process and CPU limits are not enforced (the app does not run as root)"];
    if (network) notEnforced.push("network: true shares the host's network, loopback included (egress filtering needs root)");
    if (limits.homeBytes !== null) notEnforced.push("the home is kept in memory and lost on restart (mounting a home image needs root)");
    return { procsFiles: [], notEnforced, egress: null };
  }
  const group = await prepareGroup(
    `sandbox-${identity.uid}`,
    { memoryBytes: limits.groupMemoryBytes, processes: limits.groupProcesses, cpus: limits.groupCpus },
    options.cgroupRoot,
    options.mayReapGroups,
  );
  let home: LauncherPlan["home"] = null;
  if (limits.homeBytes !== null) {
    const prepared = await prepareHomeImage(hostHomeDir(options.dataDir, context.userId, context.serverId), limits.homeBytes, identity);
    if (prepared.ok) home = { image: prepared.image, mountPoint: prepared.mountPoint };
    else group.notEnforced.push(`the home is kept in memory and lost on restart (${prepared.reason})`);
  }
  if (!network) return { ...group, home, egress: null };
  const tools = await egressToolsAvailable();
  if (!tools) {
    throw new SandboxRefusedError(
      "unavailable",
      `Cannot start "${context.serverName}" with network: true: slirp4netns, unshare or ip is missing.`,
      "install the Debian packages slirp4netns, util-linux and iproute2 (or set network: false).",
    );
  }
  return { ...group, home, egress: { routes: blockedRoutes(), ip: tools.ip } };
}

/** The resolv.conf of the egress namespace: slirp4netns's DNS forwarder. */
async function resolvConf(dataDir: string): Promise<string> {
  const dir = path.join(/*turbopackIgnore: true*/ dataDir, "sandbox-etc");
  await mkdir(dir, { recursive: true, mode: 0o755 });
  const file = path.join(dir, "resolv.egress.conf");
  await writeFile(file, `nameserver ${SLIRP_DNS}\n`, { mode: 0o644 });
  return file;
}

async function planLaunch(
  launch: StdioLaunch,
  context: LaunchContext,
  options: SandboxOptions,
  limits: SandboxLimits,
  bwrapPath: string,
  resolvConfFile: string | undefined,
  homeImage: boolean,
  seccompFd: number | undefined,
): Promise<string[]> {
  const { config } = context;
  const network = networkOf(config);
  const protectedPaths = await Promise.all([options.dataDir, ...(options.protectedPaths ?? [])].map(realOrSelf));
  const identity = identityFor(context.userId, context.serverId, process.getuid?.() ?? -1, process.getgid?.() ?? -1);
  const rootLayout = await readRootLayout();
  const systemRoots = ["/usr", ...rootLayout.map((entry) => entry.path)];

  const readOnlyBinds: ReadOnlyBind[] = [];
  const sharedDests: string[] = [];
  for (const configured of config.read_only_paths ?? []) {
    const dest = normaliseSharedPath(configured);
    const source = await realpath(dest).catch(() => {
      throw new SandboxRefusedError("path", `read_only_paths entry ${JSON.stringify(configured)} does not exist on the host.`);
    });
    assertShareable(dest, source, protectedPaths);
    readOnlyBinds.push({ source, dest });
    sharedDests.push(dest);
  }
  const nodeModules = await realpath(path.join(options.projectRoot, "node_modules")).catch(() => null);
  if (nodeModules) {
    assertNotProtected(nodeModules, "The project's node_modules", protectedPaths);
    const dest = path.join(options.projectRoot, "node_modules");
    readOnlyBinds.push({ source: nodeModules, dest }, { source: nodeModules, dest: `${SANDBOX_HOME}/node_modules` });
  }
  const executable = await findExecutable(launch.command, launch.env.PATH);
  // bwrap runs again inside (as root host, see commandTail): outside /usr it must be shared too.
  for (const program of [executable, process.execPath, bwrapPath]) {
    if (!program) continue; // not found on the host: the sandbox's PATH may still hold it
    for (const dir of await installDirs(program, systemRoots)) {
      assertNotProtected(dir, `The install directory of ${program}`, protectedPaths);
      if (!readOnlyBinds.some((bind) => bind.dest === dir)) readOnlyBinds.push({ source: dir, dest: dir });
    }
  }

  const cwd = resolveSandboxCwd(config.cwd, sharedDests);
  const env = buildSandboxEnv(launch.env, config.env);
  const hostHome = await prepareHome(options.dataDir, context, identity);
  const files = await writeIdentityFiles(options.dataDir, identity);
  return buildBwrapArgs({
    identity,
    network,
    rootLayout,
    hostHome,
    homeImage,
    resolvConf: resolvConfFile,
    identityFiles: files,
    readOnlyBinds,
    env,
    cwd,
    limits,
    bwrapInside: bwrapPath,
    seccompFd,
    command: launch.command,
    args: launch.args,
  });
}

function networkOf(config: ServerConfig): boolean {
  const network = config.network;
  if (Array.isArray(network)) {
    if (network.length === 0) return false;
    // Sharing the whole network instead would silently grant more than the administrator asked.
    throw new SandboxRefusedError(
      "network-hosts",
      `network limited to hosts (${network.join(", ")}) is not supported by the sandbox.`,
      "set `network: true` for full network access, or `network: false`.",
    );
  }
  return network === true;
}

/** `<dataDir>/sandboxes/<userId>/<serverId>`, private (0700) and owned by the sandbox's uid. */
async function prepareHome(dataDir: string, context: LaunchContext, identity: SandboxIdentity): Promise<string> {
  const home = hostHomeDir(dataDir, context.userId, context.serverId);
  await mkdir(home, { recursive: true, mode: 0o700 });
  // The parents are ours, so only the home itself could have been swapped for a symlink.
  const stats = await lstat(home);
  if (!stats.isDirectory()) throw new SandboxRefusedError("path", `The sandbox home ${home} is not a directory.`);
  if ((stats.mode & 0o777) !== 0o700) await chmod(home, 0o700);
  if (identity.kind === "drop" && (stats.uid !== identity.uid || stats.gid !== identity.gid)) {
    await chown(home, identity.uid, identity.gid);
  }
  return home;
}

/** Write the generated passwd/group once per uid, atomically (a running sandbox may have them mounted). */
async function writeIdentityFiles(dataDir: string, identity: SandboxIdentity): Promise<{ passwd: string; group: string }> {
  const dir = path.join(/*turbopackIgnore: true*/ dataDir, "sandbox-etc", String(identity.uid));
  await mkdir(dir, { recursive: true, mode: 0o755 });
  const contents = identityFiles(identity);
  const paths = { passwd: path.join(dir, "passwd"), group: path.join(dir, "group") };
  for (const name of ["passwd", "group"] as const) {
    const current = await readFile(/*turbopackIgnore: true*/ paths[name], "utf8").catch(() => null);
    if (current === contents[name]) continue;
    const temp = `${paths[name]}.${process.pid}.tmp`;
    await writeFile(temp, contents[name], { mode: 0o644 });
    await rename(temp, paths[name]);
  }
  return paths;
}

async function realOrSelf(file: string): Promise<string> {
  return realpath(file).catch(() => path.resolve(file)); // not created yet: guard the path as given
}
