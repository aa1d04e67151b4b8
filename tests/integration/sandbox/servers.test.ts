/**
 * Real MCP servers work inside the sandbox: server-everything started the usual ways
 * (`node node_modules/...` and `npx -y`, which finds the shared node_modules offline) and
 * server-filesystem over a shared read-only folder.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeFakeData, projectRoot, requireSandbox, startSandboxed, waitForNoMarker, type FakeData, type Sandboxed } from "./helpers";

const EVERYTHING = "node_modules/@modelcontextprotocol/server-everything/dist/index.js";
const FILESYSTEM = path.join(projectRoot, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");

let data: FakeData;

beforeAll(async () => {
  await requireSandbox();
  data = makeFakeData("servers-test");
});
afterAll(() => data?.cleanup());

async function echo(server: Sandboxed): Promise<string> {
  const result = await server.client.callTool({ name: "echo", arguments: { message: "hello from the sandbox" } });
  return (result.content as Array<{ text: string }>)[0].text;
}

async function closeAndCheck(server: Sandboxed): Promise<void> {
  await server.client.close();
  expect(await waitForNoMarker(server.marker)).toEqual([]);
}

describe("server-everything in the sandbox", () => {
  it("answers echo when started as `node node_modules/...` from its home", async () => {
    const server = await startSandboxed({
      sandbox: { dataDir: data.dataDir, projectRoot },
      config: { command: "node", args: [EVERYTHING, "stdio"] },
    });
    try {
      expect(await echo(server)).toContain("hello from the sandbox");
    } finally {
      await closeAndCheck(server);
    }
  });

  it("answers echo when started with `npx -y` (no network: npx uses the shared node_modules)", async () => {
    const server = await startSandboxed({
      sandbox: { dataDir: data.dataDir, projectRoot },
      config: { command: "npx", args: ["-y", "@modelcontextprotocol/server-everything", "stdio"] },
    });
    try {
      expect(await echo(server)).toContain("hello from the sandbox");
    } finally {
      await closeAndCheck(server);
    }
  });
});

describe("server-filesystem over a shared read-only folder", () => {
  let shared: string;
  let server: Sandboxed;

  beforeAll(async () => {
    shared = path.join(data.root, "shared-docs");
    mkdirSync(path.join(shared, "notes"), { recursive: true });
    writeFileSync(path.join(shared, "readme.txt"), "shared with the sandbox");
    server = await startSandboxed({
      sandbox: { dataDir: data.dataDir, projectRoot },
      config: { command: "node", args: [FILESYSTEM, shared], read_only_paths: [shared] },
    });
  });
  afterAll(async () => {
    if (server) await closeAndCheck(server);
  });

  const text = (result: unknown) => (result as { content: Array<{ text: string }> }).content.map((part) => part.text).join("\n");

  it("lists the shared folder", async () => {
    const result = await server.client.callTool({ name: "list_directory", arguments: { path: shared } });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toContain("readme.txt");
    expect(text(result)).toContain("notes");
  });

  it("reads a file in it", async () => {
    const result = await server.client.callTool({ name: "read_text_file", arguments: { path: path.join(shared, "readme.txt") } });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toContain("shared with the sandbox");
  });

  it("cannot write to it", async () => {
    const target = path.join(shared, "readme.txt");
    const result = await server.client.callTool({ name: "write_file", arguments: { path: target, content: "overwritten" } });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/read-only|EROFS|denied/i);
    expect(readFileSync(target, "utf8")).toBe("shared with the sandbox");
    const created = await server.client.callTool({ name: "write_file", arguments: { path: path.join(shared, "new.txt"), content: "x" } });
    expect(created.isError).toBe(true);
  });
});
