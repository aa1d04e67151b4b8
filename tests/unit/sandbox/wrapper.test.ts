import { describe, expect, it } from "vitest";
import { parseServerConfig } from "@/lib/mcp/config";
import { LaunchRefusedError, type StdioLaunch } from "@/lib/mcp/launch";
import { createSandboxWrapper, describeLaunch, resetSandboxCheck, SandboxRefusedError } from "@/lib/mcp/sandbox";
import { prlimitOptions, resolveLimits } from "@/lib/mcp/sandbox/limits";
import { identityFor, sandboxUid } from "@/lib/mcp/sandbox/identity";

const launch: StdioLaunch = { command: "node", args: ["server.js"], env: { PATH: "/usr/bin" } };
const context = (config: object) => ({ userId: "alice", serverId: "s1", serverName: "demo", config: parseServerConfig(config) });

describe("createSandboxWrapper", () => {
  it("refuses, never downgrades, when bubblewrap is missing, and says what to install", async () => {
    resetSandboxCheck();
    const wrap = createSandboxWrapper({ dataDir: "/nonexistent/data", projectRoot: "/nonexistent", bwrapPath: "/nonexistent/bwrap" });
    const error = await wrap(launch, context({ command: "node" })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LaunchRefusedError);
    expect(error).toMatchObject({ code: "unavailable" });
    expect((error as Error).message).toContain("apt-get install -y bubblewrap");
  });

  it("refuses host-limited network instead of granting the whole network", async () => {
    const wrap = createSandboxWrapper({ dataDir: "/nonexistent/data", projectRoot: "/nonexistent" });
    const error = await wrap(launch, context({ command: "node", network: ["api.example.com"] })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxRefusedError);
    expect(error).toMatchObject({ code: "network-hosts" });
  });

  it("runs the launch unchanged only when mode is explicitly off", async () => {
    const wrap = createSandboxWrapper({ dataDir: "/x", projectRoot: "/x", mode: "off" });
    expect(await wrap(launch, context({ command: "node" }))).toBe(launch);
    expect(() => createSandboxWrapper({ dataDir: "/x", projectRoot: "/x", mode: "maybe" as "off" })).toThrow(TypeError);
  });
});

describe("limits and identity", () => {
  it("sets soft = hard limits through prlimit, leaving null limits alone", () => {
    expect(
      prlimitOptions(
        resolveLimits({ cpuSeconds: 5, memoryBytes: null, addressSpaceBytes: 1024, processes: 10, openFiles: 64, fileSizeBytes: 2048 }),
      ),
    ).toEqual(["--cpu=5", "--as=1024", "--nproc=10", "--nofile=64", "--fsize=2048", "--core=0"]);
  });

  it("gives each (user, server) a stable unprivileged uid when the host is root", () => {
    const uid = sandboxUid("alice", "s1");
    expect(uid).toBe(sandboxUid("alice", "s1"));
    expect(uid).not.toBe(sandboxUid("alice", "s2"));
    expect(uid).not.toBe(sandboxUid("bob", "s1"));
    expect(uid).toBeGreaterThanOrEqual(0x40000000);
    expect(uid).toBeLessThan(0x80000000);
    expect(identityFor("alice", "s1", 0, 0)).toEqual({ kind: "drop", uid, gid: uid });
    expect(identityFor("alice", "s1", 1000, 1000)).toEqual({ kind: "self", uid: 1000, gid: 1000 });
  });
});

describe("describeLaunch", () => {
  it("shows the command, env names without values, network, shares, cwd and limits", () => {
    const d = describeLaunch(
      parseServerConfig({
        command: "npx",
        args: ["-y", "some server"],
        env: { API_TOKEN: "sk-secret-value" },
        read_only_paths: ["/srv/docs/"],
        cwd: "work",
        network: true,
      }),
    );
    expect(d).toMatchObject({
      sandboxed: true,
      command: "npx",
      envNames: ["API_TOKEN"],
      network: "full",
      readOnlyPaths: ["/srv/docs"],
      cwd: "/home/sandbox/work",
      problems: [],
    });
    expect(d.text).toContain("Runs: npx -y 'some server'");
    expect(d.text).toContain("API_TOKEN (values hidden)");
    expect(d.text).not.toContain("sk-secret-value");
    expect(d.text).toContain("Network: full");
    expect(d.text).toContain("/srv/docs");
    expect(d.text).toContain("CPU 3600 s, memory 2 GiB, 256 processes/threads");
    expect(d.text).toContain("not this host's loopback, private networks or the cloud metadata address");
    expect(d.text).toContain("Limits for the whole sandbox: memory 2 GiB, 256 processes/threads, 1 CPU, home 256 MiB");
  });

  it("lists why a config would be refused", () => {
    const d = describeLaunch(
      parseServerConfig({ command: "node", cwd: "../escape", network: ["a.example"], read_only_paths: ["relative"] }),
    );
    expect(d.problems).toHaveLength(3);
    expect(d.cwd).toBeNull();
    expect(d.network).toBe("refused");
  });

  it("says plainly when the sandbox is off", () => {
    const d = describeLaunch(parseServerConfig({ command: "node" }), { mode: "off" });
    expect(d.sandboxed).toBe(false);
    expect(d.text).toContain("Sandbox: OFF");
  });
});
