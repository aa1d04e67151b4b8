/**
 * The form generated from a catalog entry and the config it makes (lib/catalog/entry-form.ts), on
 * the registry fixture's published-schema examples: a remote with URL variables and a secret header
 * template, an npm package with secret environment variables, pypi, and an OCI image.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { configFromEntry, entryOptions } from "@/lib/catalog/entry-form";
import { checkServerJson, type ServerJson } from "@/lib/catalog/server-json";
import { parseServerConfig } from "@/lib/mcp/config";

const example = (name: string): ServerJson => {
  const checked = checkServerJson(JSON.parse(fs.readFileSync(path.join("tests/fixtures/registry/servers", `${name}.json`), "utf8")));
  if (!checked.ok) throw new Error(JSON.stringify(checked.issues));
  return checked.server;
};

describe("the form of an entry", () => {
  it("a remote: URL variables and headers, required marked, the secret template's variable secret, choices with a default", () => {
    const [remote] = entryOptions(example("remote-weather"));
    expect(remote).toMatchObject({ id: "remote.0", kind: "remote", runnable: true, stdio: false });
    expect(remote.fields).toEqual([
      expect.objectContaining({ key: "url.tenant", required: true, default: "acme", secret: false }),
      expect.objectContaining({ key: "header.Authorization.api_key", required: true, secret: true }),
      expect.objectContaining({ key: "header.X-Units", choices: ["metric", "imperial"], default: "metric" }),
    ]);
  });

  it("packages: npm and pypi runnable as stdio with the exact launch line; OCI shown with what it needs", () => {
    const [npm] = entryOptions(example("npm-github"));
    expect(npm).toMatchObject({ runnable: true, stdio: true, launch: "npx -y @example/issues-mcp@0.6.2 --mode <mode>" });
    expect(npm.fields.map((f) => [f.key, f.secret, f.required])).toEqual([
      ["env.ISSUES_TOKEN", true, true],
      ["env.ISSUES_HOST", false, false],
      ["arg.0", false, false],
    ]);
    expect(entryOptions(example("pypi-time"))[0]).toMatchObject({
      runnable: true,
      launch: "uvx mcp-server-time==2025.9.25 --local-timezone <local-timezone>",
    });
    expect(entryOptions(example("oci-db"))[0]).toMatchObject({ runnable: false, note: expect.stringContaining("container runtime") });
  });
});

describe("the config an entry makes", () => {
  it("fills the URL and the header template; per-member credentials make the secret header a member key", () => {
    const made = configFromEntry(example("remote-weather"), {
      option: "remote.0",
      credentials: "per_member",
      values: { "header.Authorization.api_key": "k-123" },
    });
    expect(made).toEqual({
      config: { url: "https://acme.weather.example.com/mcp", headers: { Authorization: "Bearer k-123", "X-Units": "metric" } },
      memberKeys: ["headers.Authorization"],
    });
    expect(() => parseServerConfig(made.config, "weather")).not.toThrow();
  });

  it("an npm package becomes npx stdio with its env and arguments; shared credentials say so", () => {
    const made = configFromEntry(example("npm-github"), {
      option: "package.0",
      credentials: "shared",
      values: { "env.ISSUES_TOKEN": "t", "arg.0": "write" },
    });
    expect(made).toEqual({
      config: {
        command: "npx",
        args: ["-y", "@example/issues-mcp@0.6.2", "--mode", "write"],
        env: { ISSUES_TOKEN: "t", ISSUES_HOST: "issues.example.com" },
        credentials: "shared",
      },
      memberKeys: [],
    });
  });

  it("refuses a missing required value, a value outside its choices, and a package not runnable here, naming the field", () => {
    const weather = example("remote-weather");
    expect(() => configFromEntry(weather, { option: "remote.0", credentials: "shared", values: {} })).toThrow(
      expect.objectContaining({ field: "values.header.Authorization.api_key" }),
    );
    expect(() =>
      configFromEntry(weather, {
        option: "remote.0",
        credentials: "shared",
        values: { "header.Authorization.api_key": "k", "header.X-Units": "kelvin" },
      }),
    ).toThrow(expect.objectContaining({ field: "values.header.X-Units" }));
    expect(() => configFromEntry(example("oci-db"), { option: "package.0", credentials: "shared", values: {} })).toThrow(
      expect.objectContaining({ field: "option" }),
    );
  });
});
