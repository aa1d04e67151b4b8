/**
 * Which sandbox limit ended a server: the control group's own counters (OOM kills, forks refused
 * at the process limit) read when the launch is prepared and again when the server exits, and the
 * per-process CPU-time limit's signal. The status then says "the sandbox's memory limit … was
 * reached" instead of a bare "exited with code 137" (docs/limits.md).
 */
import { readFileSync } from "node:fs";
import type { GroupCounters } from "./cgroups";
import { SANDBOX_LIMIT_ENV, type SandboxLimits } from "./limits";

/** How a child exited, as the stdio transport saw it. */
export interface ExitSeen {
  code: number | null;
  signal: string | null;
}

// 128 + SIGXCPU (24): the exit code a shell or bubblewrap reports for a child killed by it.
const SIGXCPU_EXIT = 152;

/**
 * Take the counters' values now (before the launch) and return what names the limit that acted
 * by the time the server exited, or null when none of them did.
 */
export function exitCauseReader(counters: GroupCounters | undefined, limits: SandboxLimits): (exit: ExitSeen) => string | null {
  const baseline = { kills: count(counters?.memoryKills, "oom_kill"), hits: count(counters?.processLimitHits, "max") };
  return (exit) => {
    if (count(counters?.memoryKills, "oom_kill") > baseline.kills) {
      return `the sandbox's memory limit (${limits.groupMemoryBytes} bytes, ${SANDBOX_LIMIT_ENV.groupMemoryBytes}) was reached and the kernel ended the server`;
    }
    if (exit.signal === "SIGXCPU" || exit.code === SIGXCPU_EXIT) {
      return `the sandbox's CPU time limit per process (${limits.cpuSeconds} s) was reached`;
    }
    if (count(counters?.processLimitHits, "max") > baseline.hits) {
      return `the sandbox's process limit (${limits.groupProcesses}, ${SANDBOX_LIMIT_ENV.groupProcesses}) was reached`;
    }
    return null;
  };
}

/** The number after `key` in a `key value` counter file; 0 when unreadable. */
function count(file: string | undefined, key: string): number {
  if (!file) return 0;
  try {
    const match = new RegExp(`^${key} (\\d+)$`, "m").exec(readFileSync(file, "utf8"));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0; // no counter (controller missing): that limit cannot be named, nothing else changes
  }
}
