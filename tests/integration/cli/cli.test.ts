import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, waitForPort } from "../../helpers/ports";

const EVERYTHING = path.resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const CLI = path.resolve("bin/switchboard.mjs");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-cli-"));
const children: ChildProcess[] = [];

async function serveEverything(mode: "streamableHttp" | "sse"): Promise<number> {
  const port = await freePort();
  children.push(spawn(process.execPath, [EVERYTHING, mode], { env: { ...process.env, PORT: String(port) }, stdio: "ignore" }));
  await waitForPort(port);
  return port;
}

function cli(args: string[], config = path.join(dir, "switchboard.yaml")) {
  const result = spawnSync(process.execPath, [CLI, ...args, "--config", config], { encoding: "utf8", timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(async () => {
  const [httpPort, ssePort] = [await serveEverything("streamableHttp"), await serveEverything("sse")];
  const memoryDir = path.join(dir, "memory");
  fs.mkdirSync(memoryDir);
  fs.writeFileSync(
    path.join(dir, "switchboard.yaml"),
    [
      "mcp_servers:",
      "  local:",
      "    command: node",
      `    args: [${JSON.stringify(EVERYTHING)}, stdio]`,
      "  remote:",
      `    url: http://127.0.0.1:${httpPort}/mcp`,
      "  legacy:",
      `    url: http://127.0.0.1:${ssePort}/sse`,
      "  memory:",
      "    command: node",
      `    args: [${JSON.stringify(path.resolve("node_modules/@modelcontextprotocol/server-memory/dist/index.js"))}]`,
      `    env: { MEMORY_FILE_PATH: ${JSON.stringify(path.join(memoryDir, "memory.jsonl"))} }`,
      "",
    ].join("\n"),
  );
}, 60_000);

afterAll(() => {
  for (const child of children) child.kill("SIGTERM");
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("switchboard CLI against real servers", () => {
  it("lists every server with its state and registered tool names", () => {
    const { code, stdout } = cli(["list"]);
    expect(code).toBe(0);
    for (const name of ["local", "remote", "legacy", "memory"]) expect(stdout).toMatch(new RegExp(`^${name}  connected`, "m"));
    expect(stdout).toContain("mcp_local_echo");
    expect(stdout).toContain("mcp_remote_echo");
    expect(stdout).toContain("mcp_memory_create_entities");
  });

  it.each(["local", "remote", "legacy"])("calls echo over %s and prints the reference JSON", (server) => {
    const { code, stdout } = cli(["call", `${server}.echo`, "message=hello there"]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ result: "Echo: hello there" });
  });

  it("takes --json arguments and coerces key=value by the tool's schema", () => {
    const { code, stdout } = cli(["call", "local.get-sum", "--json", '{"a": 2}', "b=40"]);
    expect(code).toBe(0);
    expect(JSON.stringify(JSON.parse(stdout))).toContain("42");
  });

  it("makes a real call on server-memory", () => {
    const created = cli([
      "call",
      "memory.create_entities",
      "--json",
      '{"entities":[{"name":"Ada","entityType":"person","observations":["wrote the first program"]}]}',
    ]);
    expect(created.code).toBe(0);
    const read = cli(["call", "memory.read_graph"]);
    expect(read.stdout).toContain("Ada");
  });

  it("exits 1 when the tool reports an error", () => {
    const { code, stdout } = cli(["call", "local.echo"]);
    expect(code).toBe(1);
    expect(JSON.parse(stdout).error).toMatch(/message/);
  });

  it("lists and reads resources, lists and gets prompts", () => {
    const resources = cli(["resources", "remote"]);
    expect(resources.code).toBe(0);
    const { resources: list } = JSON.parse(resources.stdout);
    expect(list.length).toBeGreaterThan(0);
    const read = cli(["read", "remote", list[0].uri]);
    expect(JSON.parse(read.stdout).contents[0].uri).toBe(list[0].uri);
    const prompts = cli(["prompts", "local"]);
    const names = JSON.parse(prompts.stdout).map((p: { name: string }) => p.name);
    expect(names.length).toBeGreaterThan(0);
    const simple = JSON.parse(prompts.stdout).find((p: { arguments?: unknown[] }) => !p.arguments?.length);
    const prompt = cli(["prompt", "local", simple.name]);
    expect(prompt.code).toBe(0);
    expect(JSON.parse(prompt.stdout).messages.length).toBeGreaterThan(0);
  });

  it("exits 2 with the server and key named for a bad config", () => {
    const bad = path.join(dir, "bad.yaml");
    fs.writeFileSync(bad, "mcp_servers:\n  broken:\n    command: node\n    url: http://127.0.0.1/mcp\n");
    const { code, stderr } = cli(["list"], bad);
    expect(code).toBe(2);
    expect(stderr).toContain('server "broken"');
    expect(stderr).toContain("`url`");
  });

  it("exits 2 on a connection error, naming the cause", () => {
    const bad = path.join(dir, "missing.yaml");
    fs.writeFileSync(bad, "mcp_servers:\n  ghost:\n    command: no-such-command-xyz\n");
    const { code, stderr } = cli(["call", "ghost.anything"], bad);
    expect(code).toBe(2);
    expect(stderr).toMatch(/not found/i);
  });
});
