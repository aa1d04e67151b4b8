/**
 * The pure parts of a catalog update (lib/catalog/catalog-update.ts): a template's variables read
 * back from a value, the form's values read back from the config an entry made (a round trip
 * through `configFromEntry` for each runnable example), and the diff that names changed fields
 * without ever showing a header or environment value.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { configDiff, readTemplate, valuesFromConfig } from "@/lib/catalog/catalog-update";
import { configFromEntry } from "@/lib/catalog/entry-form";
import { checkServerJson, type ServerJson } from "@/lib/catalog/server-json";
import { parseServerConfig } from "@/lib/mcp/config";

const example = (name: string): ServerJson => {
  const checked = checkServerJson(JSON.parse(fs.readFileSync(path.join("tests/fixtures/registry/servers", `${name}.json`), "utf8")));
  if (!checked.ok) throw new Error(JSON.stringify(checked.issues));
  return checked.server;
};

describe("readTemplate", () => {
  it.each([
    ["https://{tenant}.weather.example.com/mcp", "https://acme.weather.example.com/mcp", { tenant: "acme" }],
    ["Bearer {api_key}", "Bearer a.b-c{d}", { api_key: "a.b-c{d}" }],
    ["{scheme}://{host}:{port}", "http://127.0.0.1:8080", { scheme: "http", host: "127.0.0.1", port: "8080" }],
    ["no variables", "no variables", {}],
    ["https://{tenant}.weather.example.com/mcp", "https://acme.forecast.example.net/mcp", null],
    ["Bearer {api_key}", "Token x", null],
  ])("%s against %s", (template, value, expected) => {
    expect(readTemplate(template, value)).toEqual(expected);
  });
});

describe("valuesFromConfig", () => {
  it.each([
    ["remote-weather", "remote.0", { "url.tenant": "globex", "header.Authorization.api_key": "k", "header.X-Units": "imperial" }],
    ["npm-github", "package.0", { "env.ISSUES_TOKEN": "t", "env.ISSUES_HOST": "git.example.org", "arg.0": "write" }],
  ])("%s: the values an Add was given come back from its config", (name, option, values) => {
    const server = example(name);
    const { config } = configFromEntry(server, { option, values, credentials: "shared" });
    const read = valuesFromConfig(server, parseServerConfig(config, "x"));
    expect(read?.option.id).toBe(option);
    expect(read?.values).toEqual(values);
  });

  it("a config the entry could not have made matches no way to run", () => {
    expect(valuesFromConfig(example("remote-weather"), parseServerConfig({ url: "https://elsewhere.example.com/mcp" }, "x"))).toBeNull();
    expect(valuesFromConfig(example("npm-github"), parseServerConfig({ command: "npx", args: ["-y", "other@1.0.0"] }, "x"))).toBeNull();
  });
});

describe("configDiff", () => {
  it("names each changed field; URL, command and arguments with values, headers and env only by name", () => {
    const before = parseServerConfig({ url: "https://a.example.com/mcp", headers: { A: "secret-a", B: "b" } }, "x");
    const after = parseServerConfig({ url: "https://a.example.com/v2", headers: { A: "secret-a2", C: "c" } }, "x");
    const changes = configDiff(before, after);
    expect(changes).toEqual([
      { field: "url", change: "changed", from: "https://a.example.com/mcp", to: "https://a.example.com/v2" },
      { field: "headers.A", change: "changed", from: "********", to: "********" },
      { field: "headers.B", change: "removed", from: "********", to: null },
      { field: "headers.C", change: "added", from: null, to: "********" },
    ]);
    expect(JSON.stringify(changes)).not.toMatch(/secret-a/);
    expect(configDiff(before, before)).toEqual([]);
  });

  it("a URL carrying a key is shown masked", () => {
    const before = parseServerConfig({ url: "https://a.example.com/mcp?api_key=sk-123" }, "x");
    const after = parseServerConfig({ url: "https://a.example.com/v2?api_key=sk-123" }, "x");
    expect(JSON.stringify(configDiff(before, after))).not.toContain("sk-123");
  });
});
