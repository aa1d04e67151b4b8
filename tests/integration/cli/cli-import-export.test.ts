/**
 * `switchboard import` / `switchboard export` through the real entry point: a Claude Desktop file
 * is previewed, its stdio entry added only with --allow-stdio (the command line shown first), and
 * an export carries placeholders instead of secrets and imports back to the same configs.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseServersYaml } from "@/lib/mcp";

const CLI = path.resolve("bin/switchboard.mjs");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-cli-import-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function cli(args: string[], config: string) {
  const result = spawnSync(process.execPath, [CLI, ...args, "--config", config], { encoding: "utf8", timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const claude = path.join(dir, "claude_desktop_config.json");
fs.writeFileSync(
  claude,
  JSON.stringify({
    mcpServers: {
      remote: { url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer cli-secret" } },
      local: { command: "node", args: ["server.js"] },
    },
  }),
);

describe("switchboard import / export", () => {
  it("previews, then writes only with consent for the stdio entry", () => {
    const config = path.join(dir, "a.yaml");
    const preview = cli(["import", claude], config);
    expect(preview.code).toBe(0);
    expect(preview.stderr).toContain("local  ok  runs: node server.js");
    expect(preview.stdout).toContain("mcp_servers:");
    expect(fs.existsSync(config)).toBe(false);

    const refused = cli(["import", claude, "--write"], config);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("local  refused: runs a local command: add --allow-stdio to consent");
    expect(parseServersYaml(fs.readFileSync(config, "utf8")).map((s) => s.name)).toEqual(["remote"]);

    const consented = cli(["import", claude, "--write", "--allow-stdio"], config);
    expect(consented.stderr).toContain('a server named "remote" is already in');
    expect(
      parseServersYaml(fs.readFileSync(config, "utf8"))
        .map((s) => s.name)
        .sort(),
    ).toEqual(["local", "remote"]);
  });

  it("exports with placeholders that import back to the same configs", () => {
    const config = path.join(dir, "b.yaml");
    cli(["import", claude, "--write", "--allow-stdio"], config);
    const exported = cli(["export", "--format", "json"], config);
    expect(exported.code).toBe(0);
    expect(exported.stdout).not.toContain("cli-secret");
    const file = path.join(dir, "export.json");
    fs.writeFileSync(file, exported.stdout);
    const again = cli(
      ["import", file, "--inputs", JSON.stringify({ "remote.headers.Authorization": "Bearer cli-secret" })],
      path.join(dir, "c.yaml"),
    );
    expect(again.code).toBe(0);
    const original = parseServersYaml(fs.readFileSync(config, "utf8"));
    expect(parseServersYaml(again.stdout)).toEqual(original);
  });
});
