import { describe, expect, it } from "vitest";
import { buildSandboxEnv } from "@/lib/mcp/sandbox/sandbox-env";
import { SandboxRefusedError } from "@/lib/mcp/sandbox/errors";

describe("buildSandboxEnv", () => {
  it("keeps the launch env and points HOME, TMPDIR and the npm cache into the sandbox", () => {
    const env = buildSandboxEnv(
      { PATH: "/usr/bin", HOME: "/root", TMPDIR: "/var/tmp", LANG: "C.UTF-8", API_TOKEN: "t" },
      { API_TOKEN: "t" },
    );
    expect(env).toEqual({
      PATH: "/usr/bin",
      HOME: "/home/sandbox",
      TMPDIR: "/tmp",
      LANG: "C.UTF-8",
      API_TOKEN: "t",
      npm_config_cache: "/home/sandbox/.npm",
    });
  });

  it("moves host XDG directories into the sandbox unless the config set them", () => {
    const env = buildSandboxEnv(
      { XDG_CONFIG_HOME: "/root/.config", XDG_CACHE_HOME: "/srv/cache", XDG_RUNTIME_DIR: "/run/user/0", XDG_SESSION_TYPE: "tty" },
      { XDG_CACHE_HOME: "/srv/cache" },
    );
    expect(env.XDG_CONFIG_HOME).toBe("/home/sandbox/.config");
    expect(env.XDG_CACHE_HOME).toBe("/srv/cache");
    expect(env.XDG_RUNTIME_DIR).toBe("/tmp");
    expect(env.XDG_SESSION_TYPE).toBe("tty");
    expect(env.XDG_DATA_HOME).toBeUndefined();
  });

  it("keeps an npm cache the config chose", () => {
    expect(buildSandboxEnv({ npm_config_cache: "/home/sandbox/c" }, { npm_config_cache: "/home/sandbox/c" }).npm_config_cache).toBe(
      "/home/sandbox/c",
    );
  });

  it("refuses names bubblewrap cannot set", () => {
    expect(() => buildSandboxEnv({ "A=B": "x" })).toThrow(SandboxRefusedError);
    expect(() => buildSandboxEnv({ "": "x" })).toThrow(SandboxRefusedError);
  });
});
