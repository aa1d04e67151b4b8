/**
 * A plain-language account of how a stdio server will run, for users to read before its first
 * start. It shows names, never values, of the environment.
 */
import type { ServerConfig } from "../config";
import { SandboxRefusedError } from "./errors";
import { resolveLimits, type SandboxLimits } from "./limits";
import { normaliseSharedPath, resolveSandboxCwd, SANDBOX_HOME } from "./paths";

/** What `describeLaunch` reports; `text` is the same as lines for display. */
export interface LaunchDescription {
  sandboxed: boolean;
  /** The command line as the server sees it (inside the sandbox). */
  command: string;
  args: string[];
  /** Names set from the config's `env`; values are never shown. */
  envNames: string[];
  network: "none" | "full" | "refused";
  readOnlyPaths: string[];
  /** Working directory inside the sandbox, or null when it is refused. */
  cwd: string | null;
  limits: SandboxLimits | null;
  /** Why the sandbox would refuse to start this config, if it would. */
  problems: string[];
  text: string;
}

/** Options of `describeLaunch`: the same `mode` and `limits` the wrapper is created with. */
export interface DescribeOptions {
  mode?: "required" | "off";
  limits?: Partial<SandboxLimits>;
}

const HOST_ENV = "PATH, USER, LANG, LC_ALL, TERM, SHELL, XDG_* from the host; HOME and TMPDIR point into the sandbox";

/** Describe how a stdio config will be launched (command, env names, network, shared paths, cwd, limits). */
export function describeLaunch(config: ServerConfig, options: DescribeOptions = {}): LaunchDescription {
  const sandboxed = (options.mode ?? "required") !== "off";
  const problems: string[] = [];
  const readOnlyPaths: string[] = [];
  for (const entry of config.read_only_paths ?? []) {
    try {
      readOnlyPaths.push(normaliseSharedPath(entry));
    } catch (error) {
      problems.push(messageOf(error));
    }
  }
  let cwd: string | null = config.cwd ?? null;
  if (sandboxed) {
    try {
      cwd = resolveSandboxCwd(config.cwd, readOnlyPaths);
    } catch (error) {
      problems.push(messageOf(error));
      cwd = null;
    }
  }
  const hosts = Array.isArray(config.network) && config.network.length > 0;
  const network = hosts ? "refused" : config.network === true ? "full" : "none";
  if (hosts && sandboxed) problems.push("network limited to a host list is not supported; use `network: true` or `false`.");
  const limits = sandboxed ? resolveLimits(options.limits) : null;
  const description = {
    sandboxed,
    command: config.command ?? "",
    args: config.args ?? [],
    envNames: Object.keys(config.env ?? {}).sort(),
    network: sandboxed ? network : "full",
    readOnlyPaths,
    cwd,
    limits,
    problems,
  } satisfies Omit<LaunchDescription, "text">;
  return { ...description, text: render(description) };
}

function render(d: Omit<LaunchDescription, "text">): string {
  const lines = [`Runs: ${[d.command, ...d.args].map(quote).join(" ")}`];
  if (!d.sandboxed) {
    lines.push("Sandbox: OFF (administrator override): the server runs with the app's own user, files and network.");
  } else {
    lines.push(
      `Sandbox: bubblewrap; own process, network, IPC and host-name namespaces; unprivileged uid; private home ${SANDBOX_HOME} and /tmp; system directories read-only; no access to the app's data.`,
    );
  }
  lines.push(`Environment: ${d.envNames.length ? `${d.envNames.join(", ")} (values hidden)` : "none from the config"}; plus ${HOST_ENV}.`);
  lines.push(
    `Network: ${
      {
        none: "none (loopback of its own only)",
        full: d.sandboxed
          ? "full internet through slirp4netns, but not this host's loopback, private networks or the cloud metadata address (needs root; without it the host network is shared)"
          : "full (including this host's loopback services)",
        refused: "host list (not supported: the server will not start)",
      }[d.network]
    }.`,
  );
  lines.push(
    `Shared read-only: ${d.readOnlyPaths.length ? d.readOnlyPaths.join(", ") : "none"}${d.sandboxed ? " (plus the project's node_modules and the program's install directory)" : ""}.`,
  );
  lines.push(`Working directory: ${d.cwd ?? "refused"}.`);
  if (d.limits) lines.push(`Limits per process: ${renderLimits(d.limits)}.`);
  if (d.limits) lines.push(`Limits for the whole sandbox: ${renderGroupLimits(d.limits)}.`);
  for (const problem of d.problems) lines.push(`Will not start: ${problem}`);
  return lines.join("\n");
}

function renderLimits(limits: SandboxLimits): string {
  const parts = [
    limits.cpuSeconds !== null && `CPU ${limits.cpuSeconds} s`,
    limits.memoryBytes !== null && `memory ${bytes(limits.memoryBytes)}`,
    limits.addressSpaceBytes !== null && `address space ${bytes(limits.addressSpaceBytes)}`,
    limits.processes !== null && `${limits.processes} processes/threads`,
    limits.openFiles !== null && `${limits.openFiles} open files`,
    limits.fileSizeBytes !== null && `files up to ${bytes(limits.fileSizeBytes)}`,
    `/tmp ${bytes(limits.tmpBytes)}`,
  ];
  return parts.filter(Boolean).join(", ");
}

function renderGroupLimits(limits: SandboxLimits): string {
  const parts = [
    limits.groupMemoryBytes !== null && `memory ${bytes(limits.groupMemoryBytes)}`,
    limits.groupProcesses !== null && `${limits.groupProcesses} processes/threads`,
    limits.groupCpus !== null && `${limits.groupCpus} CPU`,
    limits.homeBytes !== null
      ? `home ${bytes(limits.homeBytes)} (a kept disk image; in memory where the host cannot mount one)`
      : "home on disk, kept, size not limited",
  ];
  return parts.filter(Boolean).join(", ");
}

function bytes(value: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1 && value % 1024 === 0) {
    value /= 1024;
    unit++;
  }
  return `${value} ${units[unit]}`;
}

function quote(arg: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

function messageOf(error: unknown): string {
  if (error instanceof SandboxRefusedError) return error.message;
  throw error;
}
