/** The seccomp program's shape: arch check first, one test per denied call, allow, then EPERM. */
import { describe, expect, it } from "vitest";
import { DENIED_SYSCALLS, seccompProgram } from "@/lib/mcp/sandbox/seccomp";

function decode(program: Buffer) {
  return Array.from({ length: program.length / 8 }, (_, i) => ({
    code: program.readUInt16LE(i * 8),
    jt: program.readUInt8(i * 8 + 2),
    jf: program.readUInt8(i * 8 + 3),
    k: program.readUInt32LE(i * 8 + 4),
  }));
}

describe("seccompProgram", () => {
  it.each([
    ["x64", 0xc000003e, 1],
    ["arm64", 0xc00000b7, 0],
  ] as const)("on %s every denied call jumps to EPERM and the rest is allowed", (arch, auditArch, x32) => {
    const insns = decode(seccompProgram(arch)!);
    const denied = Object.keys(DENIED_SYSCALLS).length;
    expect(insns).toHaveLength(3 + x32 + denied + 2);
    const deny = insns.length - 1;
    expect(insns[1]).toMatchObject({ code: 0x15, k: auditArch, jt: 0, jf: deny - 2 });
    expect(insns[deny - 1]).toEqual({ code: 0x06, jt: 0, jf: 0, k: 0x7fff0000 });
    expect(insns[deny]).toEqual({ code: 0x06, jt: 0, jf: 0, k: 0x00050001 });
    const tests = insns.slice(3 + x32, 3 + x32 + denied);
    for (const [i, insn] of tests.entries()) expect(3 + x32 + i + 1 + insn.jt).toBe(deny);
    expect(tests.map((t) => t.k)).toEqual(Object.values(DENIED_SYSCALLS).map((n) => n[arch === "x64" ? 0 : 1]));
  });

  it("has no table for other architectures", () => {
    expect(seccompProgram("ia32")).toBeNull();
  });
});
