/** `switchboard --sandbox`: real servers run inside the bubblewrap sandbox from the command line. */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const CLI = path.resolve("bin/switchboard.mjs");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-cli-sandbox-"));
const shared = path.join(dir, "shared");

function cli(...args: string[]) {
  const result = spawnSync(
    process.execPath,
    [CLI, ...args, "--sandbox", "--data-dir", path.join(dir, "data"), "--config", path.join(dir, "switchboard.yaml")],
    {
      encoding: "utf8",
      timeout: 60_000,
    },
  );
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(() => {
  if (!fs.existsSync("/usr/bin/bwrap")) throw new Error("bubblewrap is not installed: apt-get install -y bubblewrap");
  fs.mkdirSync(shared);
  fs.writeFileSync(path.join(shared, "hello.txt"), "hello from a shared folder\n");
  fs.writeFileSync(
    path.join(dir, "switchboard.yaml"),
    [
      "mcp_servers:",
      "  everything:",
      "    command: node",
      "    args: [node_modules/@modelcontextprotocol/server-everything/dist/index.js, stdio]",
      "    env: { SERVER_TOKEN: only-for-this-server }",
      "  files:",
      "    command: node",
      `    args: [${JSON.stringify(path.resolve("node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"))}, ${JSON.stringify(shared)}]`,
      `    read_only_paths: [${JSON.stringify(shared)}]`,
      "",
    ].join("\n"),
  );
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("switchboard --sandbox", () => {
  it("runs server-everything in the sandbox: a private home and only the allowed environment", () => {
    expect(JSON.parse(cli("call", "everything.echo", "message=boxed").stdout)).toEqual({ result: "Echo: boxed" });
    const env = JSON.parse(JSON.parse(cli("call", "everything.get-env").stdout).result);
    expect(env.HOME).toBe("/home/sandbox");
    // The server got its config env; the value is the config's own secret, so the result shows it masked.
    expect(env.SERVER_TOKEN).toBe("[REDACTED]");
    for (const name of Object.keys(env)) {
      expect(
        ["PATH", "HOME", "USER", "LANG", "LC_ALL", "TERM", "SHELL", "TMPDIR", "PWD", "SERVER_TOKEN", "npm_config_cache"].includes(name) ||
          name.startsWith("XDG_"),
        name,
      ).toBe(true);
    }
  });

  it("lets server-filesystem read a shared folder but not write to it", () => {
    const read = cli("call", "files.read_text_file", `path=${path.join(shared, "hello.txt")}`);
    expect(read.code).toBe(0);
    expect(read.stdout).toContain("hello from a shared folder");
    const write = cli("call", "files.write_file", `path=${path.join(shared, "new.txt")}`, "content=nope");
    expect(write.code).toBe(1);
    expect(fs.existsSync(path.join(shared, "new.txt"))).toBe(false);
  });
});
