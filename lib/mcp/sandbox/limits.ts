/**
 * Resource limits of a sandboxed stdio server: per process with util-linux `prlimit` inside the
 * sandbox (soft = hard, so the server cannot raise them again), and for the whole process tree in
 * a control group (`cgroups.ts`), plus the size of its home.
 */

/** Per-process resource limits. `null` leaves a limit as inherited. */
export interface SandboxLimits {
  /** CPU seconds per process (RLIMIT_CPU); the kernel kills a process that uses more. Default 3600. */
  cpuSeconds: number | null;
  /**
   * Writable memory per process in bytes (RLIMIT_DATA). Default 2 GiB. This, not the address space,
   * is the useful memory bound for Node: it counts heap and buffers but not V8's reservations.
   * Node 24 needs about 570 MiB of it just to start (its code range counts), so keep it well above.
   */
  memoryBytes: number | null;
  /**
   * Address space per process in bytes (RLIMIT_AS). Default `null`: every WebAssembly memory
   * (Node's own `fetch` uses one) reserves ~10 GiB of address space, so a tight RLIMIT_AS breaks it.
   */
  addressSpaceBytes: number | null;
  /**
   * Processes and threads of the sandbox's user (RLIMIT_NPROC). Default 256. Node itself uses ~11
   * threads. Only enforced for a non-root uid, which is why the sandbox never runs as root.
   */
  processes: number | null;
  /** Open file descriptors per process (RLIMIT_NOFILE). Default 1024. */
  openFiles: number | null;
  /** Largest file a process may write, in bytes (RLIMIT_FSIZE). Default 1 GiB. */
  fileSizeBytes: number | null;
  /** Size of the private `/tmp` (a tmpfs, so it is RAM). Default 256 MiB. */
  tmpBytes: number;
  /** Memory of the whole sandbox (all processes, their tmpfs pages). Default 2 GiB. */
  groupMemoryBytes: number | null;
  /** Processes and threads of the whole sandbox. Default 256. */
  groupProcesses: number | null;
  /** CPU time of the whole sandbox, in cores. Default 1. */
  groupCpus: number | null;
  /**
   * Size of the home: a private tmpfs of this size (RAM, counted in the sandbox's memory, never the
   * disk the database is on). Default 256 MiB. `null` binds the persistent `<data>/sandboxes/…`
   * directory instead, whose size is then not limited.
   */
  homeBytes: number | null;
}

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

/** The limits used when `createSandboxWrapper` is given none. */
export const DEFAULT_LIMITS: Readonly<SandboxLimits> = Object.freeze({
  cpuSeconds: 3600,
  memoryBytes: 2 * GiB,
  addressSpaceBytes: null,
  processes: 256,
  openFiles: 1024,
  fileSizeBytes: 1 * GiB,
  tmpBytes: 256 * MiB,
  groupMemoryBytes: 2 * GiB,
  groupProcesses: 256,
  groupCpus: 1,
  homeBytes: 256 * MiB,
});

/** Environment variables of the whole-sandbox limits (docs/limits.md). */
export const SANDBOX_LIMIT_ENV = {
  groupMemoryBytes: "SWITCHBOARD_SANDBOX_MEMORY_BYTES",
  groupProcesses: "SWITCHBOARD_SANDBOX_PROCESSES",
  groupCpus: "SWITCHBOARD_SANDBOX_CPUS",
  homeBytes: "SWITCHBOARD_SANDBOX_HOME_BYTES",
} as const;

/** Whole-sandbox limits from the environment: unset keeps the default, `0` means unlimited (home: persistent). */
export function sandboxLimitsFromEnv(env: Record<string, string | undefined>): Partial<SandboxLimits> {
  const limits: Partial<SandboxLimits> = {};
  for (const [key, name] of Object.entries(SANDBOX_LIMIT_ENV) as [keyof typeof SANDBOX_LIMIT_ENV, string][]) {
    const raw = env[name];
    if (raw === undefined || raw === "") continue;
    const value = Number(raw);
    if (Number.isFinite(value) && value >= 0) limits[key] = value === 0 ? null : value;
  }
  return limits;
}

/** Fill in defaults for the limits not given. */
export function resolveLimits(limits: Partial<SandboxLimits> | undefined): SandboxLimits {
  return { ...DEFAULT_LIMITS, ...limits };
}

/** The `prlimit` options for the given limits (core dumps are always off: they would land in HOME). */
export function prlimitOptions(limits: SandboxLimits): string[] {
  const options: Array<[string, number | null]> = [
    ["cpu", limits.cpuSeconds],
    ["data", limits.memoryBytes],
    ["as", limits.addressSpaceBytes],
    ["nproc", limits.processes],
    ["nofile", limits.openFiles],
    ["fsize", limits.fileSizeBytes],
    ["core", 0],
  ];
  return options.filter((entry): entry is [string, number] => entry[1] !== null).map(([name, value]) => `--${name}=${Math.floor(value)}`);
}
