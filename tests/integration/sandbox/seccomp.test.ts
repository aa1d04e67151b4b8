/**
 * The sandbox's seccomp filter (lib/mcp/sandbox/seccomp.ts) in a real bubblewrap sandbox: the
 * probe server keeps working while `ptrace` and `keyctl` fail with EPERM inside it; an ordinary
 * call passes; with the filter turned off (`seccomp: false`, SWITCHBOARD_SANDBOX_SECCOMP=off) the
 * same calls reach the kernel.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DENIED_SYSCALLS } from "@/lib/mcp/sandbox/seccomp";
import { callJson, fixturesDir, makeFakeData, probePath, projectRoot, requireSandbox, startSandboxed, type FakeData } from "./helpers";

const EPERM = 1;
const nr = (name: keyof typeof DENIED_SYSCALLS) => DENIED_SYSCALLS[name][process.arch === "arm64" ? 1 : 0];
const GETPID = process.arch === "arm64" ? 172 : 39;
let data: FakeData;

beforeAll(async () => {
  await requireSandbox();
  data = makeFakeData("seccomp-test");
});
afterAll(() => data?.cleanup());

const start = (seccomp?: boolean) =>
  startSandboxed({
    sandbox: { dataDir: data.dataDir, projectRoot, seccomp },
    config: { command: process.execPath, args: [probePath], read_only_paths: [fixturesDir] },
  });

describe("with the filter (the default)", () => {
  it("denies ptrace and keyctl with EPERM while the server runs on", async () => {
    const probe = await start();
    try {
      expect(await callJson(probe.client, "syscall", { nr: nr("ptrace") })).toMatchObject({ result: -1, errno: EPERM });
      expect(await callJson(probe.client, "syscall", { nr: nr("keyctl") })).toMatchObject({ result: -1, errno: EPERM });
      expect(await callJson(probe.client, "syscall", { nr: nr("bpf") })).toMatchObject({ result: -1, errno: EPERM });
      expect((await callJson(probe.client, "syscall", { nr: GETPID })).result).toBeGreaterThan(0);
      expect((await callJson(probe.client, "identity")).uid).toBeGreaterThan(0);
      expect(probe.stderr()).not.toContain("filter is not enforced");
    } finally {
      await probe.client.close();
    }
  });
});

describe("with the filter turned off", () => {
  it("lets the same calls reach the kernel", async () => {
    const probe = await start(false);
    try {
      // PTRACE_TRACEME (0) succeeds; keyctl(0, 0) is refused by the kernel itself, not with EPERM.
      expect(await callJson(probe.client, "syscall", { nr: nr("ptrace") })).toMatchObject({ result: 0 });
      expect((await callJson(probe.client, "syscall", { nr: nr("keyctl") })).errno).not.toBe(EPERM);
    } finally {
      await probe.client.close();
    }
  });
});
