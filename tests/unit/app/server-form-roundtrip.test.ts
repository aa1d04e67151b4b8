/**
 * The server form round-trips every config key exactly: filling the form from a stored config and
 * saving it unchanged gives the same config back (docs/configuration.md), including the values
 * that equal a default and `tools.include: []` (a server meant to expose no tools).
 */
import { describe, expect, it } from "vitest";
import { configToForm, formToConfig } from "@/app/_components/servers/form-model";
import { parseServerConfig } from "@/lib/mcp/config";

const http = { url: "https://mcp.example.com/mcp" };
const stdio = { command: "node" };

const cases: [string, Record<string, unknown>][] = [
  ["url", http],
  ["headers", { ...http, headers: { Authorization: "********", "X-Team": "blue" } }],
  ["headers: {}", { ...http, headers: {} }],
  ["auth: oauth", { ...http, auth: "oauth" }],
  ["oauth client", { ...http, auth: "oauth", oauth: { client_id: "abc", client_secret: "********", scope: "read write" } }],
  ["oauth: {}", { ...http, oauth: {} }],
  ["command + args", { ...stdio, args: ["server.js", "--flag", ""] }],
  ["args: []", { ...stdio, args: [] }],
  ["env", { ...stdio, env: { TOKEN: "********", MODE: "a=b" } }],
  ["env: {}", { ...stdio, env: {} }],
  ["network: true", { ...stdio, network: true }],
  ["network: false", { ...stdio, network: false }],
  ["network: hosts", { ...stdio, network: ["api.example.com", "cdn.example.com"] }],
  ["cwd", { ...stdio, cwd: "work" }],
  ["read_only_paths", { ...stdio, read_only_paths: ["/srv/data", "/opt/x"] }],
  ["read_only_paths: []", { ...stdio, read_only_paths: [] }],
  ["enabled: false", { ...http, enabled: false }],
  ["enabled: true", { ...http, enabled: true }],
  ["timeout", { ...http, timeout: 30 }],
  ["timeout: fractional", { ...http, timeout: 2.5 }],
  ["connect_timeout", { ...http, connect_timeout: 5 }],
  ["max_total_timeout", { ...http, max_total_timeout: 600 }],
  ["supports_parallel_tool_calls: true", { ...http, supports_parallel_tool_calls: true }],
  ["supports_parallel_tool_calls: false", { ...http, supports_parallel_tool_calls: false }],
  ["protocol: 2025-11-25", { ...http, protocol: "2025-11-25" }],
  ["protocol: auto", { ...http, protocol: "auto" }],
  ["credentials: shared", { ...http, credentials: "shared" }],
  ["credentials: per_member", { ...http, credentials: "per_member" }],
  ["tools.include", { ...http, tools: { include: ["echo", "add"] } }],
  ["tools.include: []", { ...http, tools: { include: [] } }],
  ["tools.exclude", { ...http, tools: { exclude: ["danger"] } }],
  ["tools.exclude: []", { ...http, tools: { exclude: [] } }],
  ["tools.resources: false", { ...http, tools: { resources: false } }],
  ["tools.resources: true", { ...http, tools: { resources: true } }],
  ["tools.prompts: false", { ...http, tools: { prompts: false } }],
  ["tools.prompts: true", { ...http, tools: { prompts: true } }],
  ["tools: {}", { ...http, tools: {} }],
  ["sampling.enabled: false", { ...http, sampling: { enabled: false } }],
  ["sampling.enabled: true", { ...http, sampling: { enabled: true } }],
  ["sampling.model", { ...http, sampling: { model: "gpt-4o-mini" } }],
  ["sampling.max_tokens_cap", { ...http, sampling: { max_tokens_cap: 512 } }],
  ["sampling.timeout", { ...http, sampling: { timeout: 12 } }],
  ["sampling.max_rpm", { ...http, sampling: { max_rpm: 0 } }],
  ["sampling.allowed_models", { ...http, sampling: { allowed_models: ["a", "b"] } }],
  ["sampling.max_tool_rounds", { ...http, sampling: { max_tool_rounds: 0 } }],
  ["sampling.log_level", { ...http, sampling: { log_level: "debug" } }],
  ["sampling.review: false", { ...http, sampling: { review: false } }],
  ["sampling.review: true", { ...http, sampling: { review: true } }],
  ["sampling: {}", { ...http, sampling: {} }],
  [
    "everything at once (stdio)",
    {
      command: "npx",
      args: ["-y", "pkg"],
      env: { A: "1" },
      network: true,
      cwd: "w",
      read_only_paths: ["/srv"],
      enabled: true,
      timeout: 10,
      max_total_timeout: 20,
      connect_timeout: 3,
      supports_parallel_tool_calls: true,
      credentials: "shared",
      tools: { include: [], exclude: ["x"], resources: false, prompts: true },
      sampling: {
        enabled: true,
        model: "m",
        max_tokens_cap: 1,
        timeout: 1,
        max_rpm: 1,
        allowed_models: ["m"],
        max_tool_rounds: 1,
        log_level: "error",
        review: false,
      },
    },
  ],
];

describe("server form round trip", () => {
  it.each(cases)("%s", (_label, raw) => {
    const stored = parseServerConfig(raw, "s");
    const saved = parseServerConfig(formToConfig(configToForm("s", stored), stored), "s");
    expect(saved).toEqual(stored);
  });

  it("an edit still changes what was changed: a default back to the default is left out", () => {
    const stored = parseServerConfig({ ...http, enabled: false, tools: { include: ["a"] } }, "s");
    const values = { ...configToForm("s", stored), enabled: true, includeOn: false };
    expect(formToConfig(values, stored)).toEqual({ url: http.url });
  });

  it("a new server's form sends only what was filled in", () => {
    const values = { ...configToForm("s", parseServerConfig(http, "s")), samplingReview: false };
    expect(formToConfig(values)).toEqual({ url: http.url, sampling: { review: false } });
  });
});
