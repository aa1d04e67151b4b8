import { describe, expect, it } from "vitest";
import { SandboxRefusedError } from "@/lib/mcp/sandbox/errors";
import { assertShareable, hostHomeDir, normaliseSharedPath, resolveSandboxCwd } from "@/lib/mcp/sandbox/paths";

const refusal = (fn: () => unknown, code: string) => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(SandboxRefusedError);
    expect((error as SandboxRefusedError).code).toBe(code);
    return;
  }
  throw new Error("expected a SandboxRefusedError");
};

describe("resolveSandboxCwd", () => {
  it.each([
    [undefined, "/home/sandbox"],
    ["", "/home/sandbox"],
    [".", "/home/sandbox"],
    ["work", "/home/sandbox/work"],
    ["a/../b", "/home/sandbox/b"],
    ["/home/sandbox/x", "/home/sandbox/x"],
    ["/srv/docs/sub", "/srv/docs/sub"],
  ])("resolves %j to %s", (cwd, expected) => {
    expect(resolveSandboxCwd(cwd, ["/srv/docs"])).toBe(expected);
  });

  it.each(["..", "../other-server", "work/../../..", "/etc", "/home/sandboxed", "/srv/docs/../secrets", "/"])(
    "rejects the escape %j",
    (cwd) => {
      refusal(() => resolveSandboxCwd(cwd, ["/srv/docs"]), "cwd");
    },
  );
});

describe("read-only paths", () => {
  it("normalises absolute paths and rejects relative ones and `..`", () => {
    expect(normaliseSharedPath("/srv/docs/")).toBe("/srv/docs");
    expect(normaliseSharedPath("/srv//docs")).toBe("/srv/docs");
    refusal(() => normaliseSharedPath("docs"), "path");
    refusal(() => normaliseSharedPath("/srv/../etc"), "path");
  });

  it.each(["/", "/proc/1", "/sys", "/dev", "/run/dbus", "/var/run", "/home/sandbox", "/home", "/tmp"])("never shares %s", (shared) => {
    refusal(() => assertShareable(shared, shared, ["/srv/data"]), "path");
  });

  it("refuses paths that contain or lie inside protected data, also through symlinks", () => {
    refusal(() => assertShareable("/srv", "/srv", ["/srv/data"]), "path");
    refusal(() => assertShareable("/srv/data/sandboxes/bob", "/srv/data/sandboxes/bob", ["/srv/data"]), "path");
    refusal(() => assertShareable("/opt/link", "/srv/data", ["/srv/data"]), "path");
    expect(() => assertShareable("/srv/docs", "/srv/docs", ["/srv/data"])).not.toThrow();
    expect(() => assertShareable("/tmp/share", "/tmp/share", ["/srv/data"])).not.toThrow();
  });
});

describe("hostHomeDir", () => {
  it("keys the home by user and server under <dataDir>/sandboxes", () => {
    expect(hostHomeDir("/srv/data", "alice", "srv-1")).toBe("/srv/data/sandboxes/alice/srv-1");
  });

  it.each([
    ["..", "s"],
    ["alice", "../bob"],
    ["a/b", "s"],
    [".hidden", "s"],
    ["", "s"],
  ])("rejects unsafe ids %j/%j", (user, server) => {
    refusal(() => hostHomeDir("/srv/data", user, server), "identity");
  });
});
