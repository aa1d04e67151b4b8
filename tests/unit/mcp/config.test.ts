/**
 * Server config validation (docs/configuration.md) as a table: every key with good and bad values, asserting the
 * error's `field` and message, plus the YAML `mcp_servers:` loader.
 */
import { describe, expect, it } from "vitest";
import { ConfigError, effectiveSettings, parseServerConfig, parseServersYaml, transportOf } from "@/lib/mcp/config";

const STDIO = { command: "npx" };
const HTTP = { url: "https://mcp.example.com/mcp" };

describe("parseServerConfig accepts", () => {
  const good: Array<[string, Record<string, unknown>, (c: ReturnType<typeof parseServerConfig>) => void]> = [
    ["stdio with args and env", { ...STDIO, args: ["-y", "pkg"], env: { A: "b" } }, (c) => expect(transportOf(c)).toBe("stdio")],
    ["http with headers", { ...HTTP, headers: { Authorization: "Bearer x" } }, (c) => expect(transportOf(c)).toBe("http")],
    ["http with auth oauth", { ...HTTP, auth: "oauth" }, (c) => expect(c.auth).toBe("oauth")],
    ["enabled as yes", { ...STDIO, enabled: "yes" }, (c) => expect(c.enabled).toBe(true)],
    ["enabled as off", { ...STDIO, enabled: "off" }, (c) => expect(c.enabled).toBe(false)],
    ["enabled as 0", { ...STDIO, enabled: 0 }, (c) => expect(c.enabled).toBe(false)],
    ["parallel as 1", { ...STDIO, supports_parallel_tool_calls: 1 }, (c) => expect(c.supports_parallel_tool_calls).toBe(true)],
    [
      "timeouts",
      { ...STDIO, timeout: 30, connect_timeout: 5.5 },
      (c) => expect(effectiveSettings(c)).toMatchObject({ timeoutMs: 30_000, connectTimeoutMs: 5500 }),
    ],
    ["include as one string", { ...STDIO, tools: { include: "read" } }, (c) => expect(c.tools?.include).toEqual(["read"])],
    ["exclude as a list", { ...STDIO, tools: { exclude: ["a", "b"] } }, (c) => expect(c.tools?.exclude).toEqual(["a", "b"])],
    ["resources as 'false'", { ...STDIO, tools: { resources: "false" } }, (c) => expect(c.tools?.resources).toBe(false)],
    ["prompts as 'on'", { ...STDIO, tools: { prompts: "on" } }, (c) => expect(c.tools?.prompts).toBe(true)],
    ["held to 2025-11-25", { ...HTTP, protocol: "2025-11-25" }, (c) => expect(c.protocol).toBe("2025-11-25")],
    [
      "sampling policy",
      { ...STDIO, sampling: { enabled: false, max_rpm: 5, allowed_models: ["m"], log_level: "debug" } },
      (c) => expect(c.sampling?.enabled).toBe(false),
    ],
  ];
  it.each(good)("%s", (_name, input, check) => check(parseServerConfig(input, "srv")));

  it("applies the config defaults", () => {
    expect(effectiveSettings(parseServerConfig(STDIO))).toEqual({
      enabled: true,
      timeoutMs: 120_000,
      maxTotalTimeoutMs: 900_000,
      connectTimeoutMs: 60_000,
      parallel: false,
      resources: true,
      prompts: true,
    });
  });

  it.each([
    ["15 min by default", {}, 900_000],
    ["the call timeout when that is longer", { timeout: 3600 }, 3_600_000],
    ["the configured ceiling", { max_total_timeout: 60 }, 60_000],
  ])("max_total_timeout: %s", (_name, extra, ms) => {
    expect(effectiveSettings(parseServerConfig({ ...STDIO, ...extra })).maxTotalTimeoutMs).toBe(ms);
  });
});

describe("parseServerConfig rejects", () => {
  const bad: Array<[string, unknown, string, RegExp]> = [
    ["both command and url", { ...STDIO, ...HTTP }, "url", /either `command` \(stdio\) or `url` \(HTTP\), not both/],
    ["neither command nor url", {}, "command", /one of `command` \(stdio\) or `url` \(HTTP\) is required/],
    ["an unknown key", { ...STDIO, bogus: 1 }, "bogus", /unknown key `bogus`/],
    ["a protocol it cannot hold to", { ...HTTP, protocol: "2024-11-05" }, "protocol", /expected one of|invalid option/i],
    ["an unknown tools key", { ...STDIO, tools: { bogus: true } }, "tools.bogus", /unknown key `bogus`/],
    ["command not a string", { command: 5 }, "command", /expected string/],
    ["empty command", { command: "" }, "command", /too small|>=1/i],
    ["args not a list", { ...STDIO, args: "-y" }, "args", /expected array/],
    ["env value not a string", { ...STDIO, env: { A: 1 } }, "env.A", /expected string/],
    ["headers not a map", { ...HTTP, headers: ["a"] }, "headers", /expected record/],
    ["enabled not bool-like", { ...STDIO, enabled: "maybe" }, "enabled", /expected a boolean/],
    ["parallel not bool-like", { ...STDIO, supports_parallel_tool_calls: "perhaps" }, "supports_parallel_tool_calls", /expected a boolean/],
    ["resources not bool-like", { ...STDIO, tools: { resources: "sometimes" } }, "tools.resources", /expected a boolean/],
    ["timeout as a string", { ...STDIO, timeout: "60" }, "timeout", /expected number/],
    ["negative timeout", { ...STDIO, timeout: -1 }, "timeout", /too small|>0/i],
    ["zero connect_timeout", { ...STDIO, connect_timeout: 0 }, "connect_timeout", /too small|>0/i],
    ["include of a number", { ...STDIO, tools: { include: 3 } }, "tools.include", /wrong type/],
    ["headers on stdio", { ...STDIO, headers: { A: "b" } }, "headers", /applies only to HTTP servers/],
    ["env on http", { ...HTTP, env: { A: "b" } }, "env", /applies only to stdio servers/],
    ["args on http", { ...HTTP, args: [] }, "args", /applies only to stdio servers/],
    ["a non-http url", { url: "ftp://example.com" }, "url", /absolute http:\/\/ or https:\/\/ URL/],
    ["a relative url", { url: "/mcp" }, "url", /absolute http:\/\/ or https:\/\/ URL/],
    ["credentials in the url", { url: "https://u:p@example.com/mcp" }, "url", /must not carry credentials/],
    ["auth other than oauth", { ...HTTP, auth: "basic" }, "auth", /oauth/],
    ["sampling unknown level", { ...STDIO, sampling: { log_level: "loud" } }, "sampling.log_level", /debug|info/],
    ["sampling unknown key", { ...STDIO, sampling: { temperature: 1 } }, "sampling.temperature", /unknown key/],
  ];
  it.each(bad)("%s", (_name, input, field, message) => {
    let error: unknown;
    try {
      parseServerConfig(input, "srv");
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).field).toBe(field);
    expect((error as ConfigError).server).toBe("srv");
    expect((error as ConfigError).message).toMatch(message);
    expect((error as ConfigError).message).toContain('server "srv"');
  });
});

describe("parseServersYaml", () => {
  it("reads servers under mcp_servers:", () => {
    const servers = parseServersYaml(`
mcp_servers:
  filesystem:
    command: npx
    args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]
    tools:
      include: read_file
  remote:
    url: https://mcp.example.com/mcp
    enabled: no
`);
    expect(servers.map((s) => [s.id, s.name])).toEqual([
      ["filesystem", "filesystem"],
      ["remote", "remote"],
    ]);
    expect(servers[0].config.tools?.include).toEqual(["read_file"]);
    expect(servers[1].config.enabled).toBe(false);
  });

  const bad: Array<[string, string, string, RegExp]> = [
    ["an unknown top-level key", "servers:\n  a:\n    command: x\n", "servers", /unknown top-level key/],
    ["a list under mcp_servers", "mcp_servers:\n  - command: x\n", "mcp_servers", /map of server name/],
    ["not a map", "- 1\n", "mcp_servers", /top-level `mcp_servers:`/],
    ["a bad server name", "mcp_servers:\n  'bad name':\n    command: x\n", "name", /letters, digits/],
    ["a bad key in a server", "mcp_servers:\n  fs:\n    command: x\n    argz: []\n", "argz", /server "fs".*unknown key `argz`/],
    ["invalid YAML", "mcp_servers: [\n", "", /invalid YAML/],
  ];
  it.each(bad)("rejects %s", (_name, text, field, message) => {
    expect(() => parseServersYaml(text)).toThrow(ConfigError);
    try {
      parseServersYaml(text);
    } catch (error) {
      expect((error as ConfigError).field).toBe(field);
      expect((error as ConfigError).message).toMatch(message);
    }
  });
});
