import { describe, expect, it } from "vitest";
import { buildBwrapArgs, type SandboxPlan } from "@/lib/mcp/sandbox/bwrap-args";
import { DEFAULT_LIMITS } from "@/lib/mcp/sandbox/limits";

const UID = 1234567890;

function plan(overrides: Partial<SandboxPlan> = {}): SandboxPlan {
  return {
    identity: { kind: "drop", uid: UID, gid: UID },
    network: false,
    rootLayout: [{ path: "/bin", symlinkTo: "usr/bin" }, { path: "/lib64" }],
    hostHome: "/srv/data/sandboxes/alice/s1",
    identityFiles: { passwd: "/srv/data/sandbox-etc/1/passwd", group: "/srv/data/sandbox-etc/1/group" },
    readOnlyBinds: [],
    env: { PATH: "/usr/bin:/bin", HOME: "/home/sandbox", TMPDIR: "/tmp" },
    cwd: "/home/sandbox",
    limits: { ...DEFAULT_LIMITS },
    bwrapInside: "/usr/bin/bwrap",
    command: "node",
    args: ["server.js", "--flag"],
    ...overrides,
  };
}

/** The value following each occurrence of `flag` (or the pair for two-operand flags). */
function operands(args: string[], flag: string, count = 1): string[][] {
  const found: string[][] = [];
  args.forEach((arg, i) => {
    if (arg === flag) found.push(args.slice(i + 1, i + 1 + count));
  });
  return found;
}

function beforeSeparator(args: string[]): string[] {
  return args.slice(0, args.indexOf("--"));
}

describe("buildBwrapArgs", () => {
  it("isolates every namespace, including the network, when network is off", () => {
    const args = beforeSeparator(buildBwrapArgs(plan()));
    for (const flag of [
      "--unshare-ipc",
      "--unshare-pid",
      "--unshare-uts",
      "--unshare-cgroup-try",
      "--unshare-net",
      "--die-with-parent",
      "--new-session",
    ]) {
      expect(args).toContain(flag);
    }
    expect(args).not.toContain("--share-net");
  });

  it("keeps the host network only when network is on", () => {
    const args = beforeSeparator(buildBwrapArgs(plan({ network: true })));
    expect(args).not.toContain("--unshare-net");
    const unprivileged = beforeSeparator(buildBwrapArgs(plan({ network: true, identity: { kind: "self", uid: 1000, gid: 1000 } })));
    expect(unprivileged).toEqual(expect.arrayContaining(["--unshare-all", "--unshare-user", "--disable-userns", "--share-net"]));
    const offline = beforeSeparator(buildBwrapArgs(plan({ identity: { kind: "self", uid: 1000, gid: 1000 } })));
    expect(offline).toContain("--unshare-all");
    expect(offline).not.toContain("--share-net");
  });

  it("clears the environment and sets exactly the planned variables", () => {
    const args = buildBwrapArgs(plan());
    const clear = args.indexOf("--clearenv");
    expect(clear).toBeGreaterThan(-1);
    const sets = operands(args, "--setenv", 2);
    expect(sets).toEqual([
      ["PATH", "/usr/bin:/bin"],
      ["HOME", "/home/sandbox"],
      ["TMPDIR", "/tmp"],
    ]);
    expect(args.indexOf("--setenv")).toBeGreaterThan(clear);
  });

  it("caps the home as a private tmpfs of homeBytes: nothing of the data directory's disk is writable", () => {
    const args = beforeSeparator(buildBwrapArgs(plan()));
    expect(operands(args, "--tmpfs")).toEqual([["/tmp"], ["/home/sandbox"]]);
    const home = args.indexOf("/home/sandbox", args.indexOf("--tmpfs", args.indexOf("--tmpfs") + 1));
    expect(args.slice(home - 5, home - 3)).toEqual(["--size", String(256 * 1024 * 1024)]);
    expect(operands(args, "--bind", 2)).toEqual([]);
  });

  it("binds the host home when the launcher mounts the capped home image on it (no tmpfs home)", () => {
    const args = beforeSeparator(buildBwrapArgs(plan({ homeImage: true })));
    expect(operands(args, "--tmpfs")).toEqual([["/tmp"]]);
    expect(operands(args, "--bind", 2)).toEqual([["/srv/data/sandboxes/alice/s1", "/home/sandbox"]]);
  });

  it("mounts system directories read-only, a fresh /proc and /dev, a private /tmp and the persistent home writable", () => {
    const args = beforeSeparator(buildBwrapArgs(plan({ limits: { ...DEFAULT_LIMITS, homeBytes: null } })));
    expect(operands(args, "--ro-bind", 2)).toContainEqual(["/usr", "/usr"]);
    expect(operands(args, "--ro-bind", 2)).toContainEqual(["/lib64", "/lib64"]);
    expect(operands(args, "--symlink", 2)).toContainEqual(["usr/bin", "/bin"]);
    expect(operands(args, "--proc")).toEqual([["/proc"]]);
    expect(operands(args, "--dev")).toEqual([["/dev"]]);
    expect(operands(args, "--tmpfs")).toEqual([["/tmp"]]);
    expect(operands(args, "--bind", 2)).toEqual([["/srv/data/sandboxes/alice/s1", "/home/sandbox"]]);
    expect(operands(args, "--ro-bind", 2)).toContainEqual(["/srv/data/sandbox-etc/1/passwd", "/etc/passwd"]);
    // Nothing of the host's root, /root or the data directory beyond the home and identity files.
    const sources = [...operands(args, "--ro-bind", 2), ...operands(args, "--ro-bind-try", 2), ...operands(args, "--bind", 2)].map(
      ([s]) => s,
    );
    expect(sources).not.toContain("/");
    expect(sources.filter((s) => s.startsWith("/root"))).toEqual([]);
    expect(sources.filter((s) => s.startsWith("/srv/data"))).toEqual([
      "/srv/data/sandbox-etc/1/passwd",
      "/srv/data/sandbox-etc/1/group",
      "/srv/data/sandboxes/alice/s1",
    ]);
    expect(sources).not.toContain("/etc/shadow");
    expect(operands(args, "--chdir")).toEqual([["/home/sandbox"]]);
    expect(operands(args, "--remount-ro")).toEqual([["/"]]);
  });

  it("shares read-only paths at the same path, parents first, with traversable parent directories", () => {
    const args = beforeSeparator(
      buildBwrapArgs(
        plan({
          readOnlyBinds: [
            { source: "/srv/docs/inner", dest: "/srv/docs/inner" },
            { source: "/srv/docs", dest: "/srv/docs" },
          ],
        }),
      ),
    );
    const binds = operands(args, "--ro-bind", 2).filter(([, dest]) => dest.startsWith("/srv/docs"));
    expect(binds).toEqual([
      ["/srv/docs", "/srv/docs"],
      ["/srv/docs/inner", "/srv/docs/inner"],
    ]);
    expect(args).toEqual(expect.arrayContaining(["--perms", "0755", "--dir", "/srv"]));
    expect(args.indexOf("/srv")).toBeLessThan(args.indexOf("/srv/docs"));
  });

  it("drops to the sandbox uid with setpriv, applies limits with prlimit and forbids nested user namespaces", () => {
    const args = buildBwrapArgs(plan());
    const tail = args.slice(args.indexOf("--") + 1);
    expect(tail).toEqual([
      "/usr/bin/setpriv",
      `--reuid=${UID}`,
      `--regid=${UID}`,
      "--clear-groups",
      "--inh-caps=-all",
      "--bounding-set=-all",
      "--no-new-privs",
      "--",
      "/usr/bin/prlimit",
      "--cpu=3600",
      `--data=${2 * 1024 ** 3}`,
      "--nproc=256",
      "--nofile=1024",
      `--fsize=${1024 ** 3}`,
      "--core=0",
      "--",
      "/usr/bin/bwrap",
      "--unshare-user",
      "--disable-userns",
      "--dev-bind",
      "/",
      "/",
      "--die-with-parent",
      "--chdir",
      "/home/sandbox",
      "--",
      "node",
      "server.js",
      "--flag",
    ]);
    const unprivileged = buildBwrapArgs(plan({ identity: { kind: "self", uid: 1000, gid: 1000 } }));
    expect(unprivileged).not.toContain("/usr/bin/setpriv");
    expect(unprivileged).not.toContain("--cap-add");
    // Unprivileged, the one bwrap has its own user namespace and disables nested ones itself.
    expect(unprivileged.filter((arg) => arg === "--disable-userns")).toHaveLength(1);
  });

  it("creates a cwd below the home as the sandbox user, after dropping privileges", () => {
    const args = buildBwrapArgs(plan({ cwd: "/home/sandbox/work" }));
    expect(operands(args, "--chdir")).toEqual([["/home/sandbox"], ["/home/sandbox"]]);
    const sh = args.indexOf("/bin/sh");
    expect(sh).toBeGreaterThan(args.indexOf("/usr/bin/setpriv"));
    expect(args.slice(sh + 3)).toEqual(["sandbox-cwd", "/home/sandbox/work", "node", "server.js", "--flag"]);
  });

  it("starts directly in a shared read-only cwd", () => {
    const args = buildBwrapArgs(plan({ cwd: "/srv/docs", readOnlyBinds: [{ source: "/srv/docs", dest: "/srv/docs" }] }));
    expect(operands(args, "--chdir")).toEqual([["/srv/docs"], ["/srv/docs"]]);
    expect(args).not.toContain("/bin/sh");
  });
});
