/**
 * Resource limits of a sandboxed stdio server, applied per process with util-linux `prlimit`
 * inside the sandbox (soft = hard, so the server cannot raise them again).
 */

/** Per-process resource limits. `null` leaves a limit as inherited. */
export interface SandboxLimits {
  /** CPU seconds per process (RLIMIT_CPU); the kernel kills a process that uses more. Default 3600. */
  cpuSeconds: number | null;
  /**
   * Writable memory per process in bytes (RLIMIT_DATA). Default 2 GiB. This, not the address space,
   * is the useful memory bound for Node: it counts heap and buffers but not V8's reservations.
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
});

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
