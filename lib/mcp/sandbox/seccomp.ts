/**
 * The seccomp filter of sandboxed servers (docs/security.md#seccomp): a classic BPF program that
 * bubblewrap loads (`--seccomp FD`) right before it starts the server. Default allow, with a deny
 * list of system calls a tool server never needs and that reach kernel code an escape would aim at
 * (debugging other processes, the kernel keyring, loading kernels, modules and BPF programs,
 * mounts, swap, the clock, reboot). A denied call fails with EPERM; the process lives on. Calls of
 * another ABI (32-bit, x32) are all denied: their numbers differ and would slip past the list.
 * Built here, byte by byte: no compiler or library is needed on the host.
 */
import { createHash } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";

/** System calls denied, with their numbers on x86_64 and on aarch64 (asm-generic). */
export const DENIED_SYSCALLS: Readonly<Record<string, readonly [x64: number, arm64: number]>> = {
  ptrace: [101, 117],
  process_vm_readv: [310, 270],
  process_vm_writev: [311, 271],
  keyctl: [250, 219],
  add_key: [248, 217],
  request_key: [249, 218],
  kexec_load: [246, 104],
  kexec_file_load: [320, 294],
  bpf: [321, 280],
  perf_event_open: [298, 241],
  userfaultfd: [323, 282],
  init_module: [175, 105],
  finit_module: [313, 273],
  delete_module: [176, 106],
  mount: [165, 40],
  umount2: [166, 39],
  pivot_root: [155, 41],
  open_tree: [428, 428],
  move_mount: [429, 429],
  fsopen: [430, 430],
  fsconfig: [431, 431],
  fsmount: [432, 432],
  fspick: [433, 433],
  mount_setattr: [442, 442],
  swapon: [167, 224],
  swapoff: [168, 225],
  reboot: [169, 142],
  acct: [163, 89],
  settimeofday: [164, 170],
  clock_settime: [227, 112],
  clock_adjtime: [305, 266],
  adjtimex: [159, 171],
  syslog: [103, 116],
  quotactl: [179, 60],
  lookup_dcookie: [212, 18],
  open_by_handle_at: [304, 265],
  name_to_handle_at: [303, 264],
};

// linux/audit.h, linux/seccomp.h, linux/filter.h
const ARCH = { x64: 0xc000003e, arm64: 0xc00000b7 } as const;
const X32_SYSCALL_BIT = 0x40000000;
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO_EPERM = 0x00050000 | 1;
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const RET_K = 0x06;
// struct seccomp_data: int nr; __u32 arch; ...
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;

type Insn = [code: number, jt: number, jf: number, k: number];

/** The filter program for `arch` (Node's `process.arch`), or null where the sandbox has no table for it. */
export function seccompProgram(arch: string = process.arch): Buffer | null {
  if (arch !== "x64" && arch !== "arm64") return null;
  const numbers = Object.values(DENIED_SYSCALLS).map(([x64, arm64]) => (arch === "x64" ? x64 : arm64));
  const denied = numbers.length;
  // Layout: [0] load arch, [1] other ABI → deny, [2] load nr, [3] x32 → deny (x64 only),
  // then one test per denied call, then allow, then deny. Jumps count instructions skipped.
  const insns: Insn[] = [];
  const x32Check = arch === "x64" ? 1 : 0;
  const afterChecks = 3 + x32Check; // index of the first per-call test
  const allowAt = afterChecks + denied;
  const denyAt = allowAt + 1;
  const jumpTo = (from: number, to: number) => to - from - 1;
  insns.push([LD_W_ABS, 0, 0, OFFSET_ARCH]);
  insns.push([JEQ_K, 0, jumpTo(1, denyAt), ARCH[arch]]);
  insns.push([LD_W_ABS, 0, 0, OFFSET_NR]);
  if (x32Check) insns.push([JGE_K, jumpTo(3, denyAt), 0, X32_SYSCALL_BIT]);
  numbers.forEach((nr, i) => {
    const at = afterChecks + i;
    insns.push([JEQ_K, jumpTo(at, denyAt), 0, nr]);
  });
  insns.push([RET_K, 0, 0, RET_ALLOW]);
  insns.push([RET_K, 0, 0, RET_ERRNO_EPERM]);
  const program = Buffer.alloc(insns.length * 8);
  insns.forEach(([code, jt, jf, k], i) => {
    if (jt > 255 || jf > 255) throw new Error("seccomp program too long for a short jump");
    program.writeUInt16LE(code, i * 8);
    program.writeUInt8(jt, i * 8 + 2);
    program.writeUInt8(jf, i * 8 + 3);
    program.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return program;
}

/**
 * Write the program once to `<dataDir>/sandbox-etc/seccomp-<hash>.bpf` (root's, read by the
 * launcher only) and return its path; null where the sandbox has no filter for this architecture.
 */
export async function seccompFile(dataDir: string): Promise<string | null> {
  const program = seccompProgram();
  if (!program) return null;
  const dir = path.join(/*turbopackIgnore: true*/ dataDir, "sandbox-etc");
  const file = path.join(dir, `seccomp-${createHash("sha256").update(program).digest("hex").slice(0, 16)}.bpf`);
  const current = await readFile(/*turbopackIgnore: true*/ file).catch(() => null);
  if (current?.equals(program)) return file;
  await mkdir(dir, { recursive: true, mode: 0o755 });
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, program, { mode: 0o600 });
  await rename(temp, file);
  return file;
}
