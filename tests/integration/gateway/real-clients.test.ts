/**
 * Real MCP clients from npm against the gateway (issue 33, "Tests that must exist": the personal
 * access token half of "real clients"), on the run's database, the real route handlers over
 * `node:http` and a real MCP server: the Inspector's CLI (`@modelcontextprotocol/inspector-cli`)
 * lists and calls a tool through `/mcp/<slug>/<server>` and `/mcp/<slug>` with the token as a
 * `--header`; `mcp-remote` run as a stdio server with the token in `--header`, driven by the SDK's
 * stdio client, does the same; a wrong token is refused by both: the Inspector opens no browser,
 * and mcp-remote starts its OAuth sign-in with Switchboard's authorization server.
 */
import { execFile } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { flushAudit, listRecentAudit } from "@/db/queries/audit";
import { createServer } from "@/db/queries/servers";
import { setToolPolicy } from "@/db/queries/tool-policies";
import { getWorkspaceById } from "@/db/queries/workspaces";
import { createToken } from "@/lib/auth/personal-tokens";
import { parseServerConfig } from "@/lib/mcp/config";
import { useTempDataDir } from "../../helpers/temp-data-dir";
import { FIXTURES, freePort, ROOT, startHttpServer } from "../mcp/helpers";
import { type Person, person, team } from "../workspaces/helpers";
import { type ServedGateway, serveGateway, closeGatewayTest } from "./helpers";

// Route modules and the use cases are marked server-only (a bundler marker that throws outside Next's server build).
vi.mock("server-only", () => ({}));

// Read at first use by the app's pool: the fixture server listens on loopback.
process.env.SWITCHBOARD_ALLOWED_HOSTS = "127.0.0.1,localhost";

const INSPECTOR_BUILD = path.join(ROOT, "node_modules/@modelcontextprotocol/inspector-cli/build");
const MCP_REMOTE = path.join(ROOT, "node_modules/mcp-remote/dist/proxy.js");

let dir = "";
let fixture: ChildProcess | undefined;
let gateway: ServedGateway | undefined;
let admin: Person;
let acmeSlug = "";
let secret = "";
/** A fresh HOME for the clients (mcp-remote keeps its OAuth state under ~/.mcp-auth), with a `browser` that only leaves a mark. */
let home = "";
let browserMark = "";
const clients: Client[] = [];

/**
 * The environment of a client process: the project's Node first on PATH (the Inspector's launcher
 * spawns `node` by name), HOME and mcp-remote's config dir in the temp folder, no display, and
 * BROWSER set to a script that writes `browserMark` — what xdg-open, sensible-browser and the `open`
 * package run when there is no desktop — so a browser the client tried to open shows up as that file.
 */
function clientEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !["DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS"].includes(key)) env[key] = value;
  }
  return {
    ...env,
    PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ""}`,
    HOME: home,
    MCP_REMOTE_CONFIG_DIR: path.join(home, ".mcp-auth"),
    BROWSER: path.join(home, "browser"),
    ...extra,
  };
}

/** What a finished Inspector CLI run left: its exit code, and its output. */
interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Run the Inspector's CLI as a person would (`mcp-inspector-cli --cli <url> --transport http
 * --method … --header "Authorization: Bearer …"`). Asynchronous on purpose: the gateway it calls is
 * served by this very process. The working directory is the package's `build/`: the CLI reads its own
 * package.json through a path it checks relative to the working directory (`../package.json`).
 */
function inspector(url: string, token: string, args: string[]): Promise<CliRun> {
  const argv = [
    path.join(INSPECTOR_BUILD, "cli.js"),
    "--cli",
    url,
    "--transport",
    "http",
    ...args,
    "--header",
    `Authorization: Bearer ${token}`,
  ];
  return new Promise((resolve) => {
    // The project's ProcessEnv type requires NODE_ENV, which a client's environment need not carry.
    const env = clientEnv() as NodeJS.ProcessEnv;
    execFile(process.execPath, argv, { cwd: INSPECTOR_BUILD, env, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** The JSON the CLI printed on success (its stdout is that JSON alone). */
function printed<T>(run: CliRun): T {
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as T;
}

/** A stdio client on mcp-remote: the client, its connection (settled once `initialize` is answered or failed), and what mcp-remote logged. */
interface RemoteClient {
  client: Client;
  connected: Promise<void>;
  stderr: () => string;
}

/**
 * The SDK's stdio client on `mcp-remote <url> --header "Authorization: Bearer ${SWITCHBOARD_TOKEN}"`:
 * mcp-remote substitutes `${…}` from its environment, which keeps the token out of its arguments
 * (as its README advises for a client's configuration file). `--transport http-only`: the gateway
 * speaks Streamable HTTP alone, so a refusal must not be retried as the legacy SSE transport.
 */
function throughMcpRemote(url: string, token: string): RemoteClient {
  const transport = new StdioClientTransport({
    command: process.execPath,
    // biome-ignore lint/suspicious/noTemplateCurlyInString: mcp-remote itself replaces `${SWITCHBOARD_TOKEN}` from its environment.
    args: [MCP_REMOTE, url, "--header", "Authorization: Bearer ${SWITCHBOARD_TOKEN}", "--transport", "http-only"],
    env: clientEnv({ SWITCHBOARD_TOKEN: token }),
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: "stdio-behind-mcp-remote", version: "1.0.0" });
  clients.push(client);
  return { client, connected: client.connect(transport), stderr: () => stderr };
}

const perServerUrl = () => `${gateway!.base}/mcp/${acmeSlug}/sessions`;
const workspaceUrl = () => `${gateway!.base}/mcp/${acmeSlug}`;
const textOf = (result: { content?: unknown }) => JSON.stringify(result.content ?? "");

beforeAll(async () => {
  dir = useTempDataDir();
  home = mkdtempSync(path.join(os.tmpdir(), "sb-real-clients-home-"));
  browserMark = path.join(home, "browser-was-opened");
  writeFileSync(path.join(home, "browser"), `#!/bin/sh\necho "$@" >> '${browserMark}'\n`);
  chmodSync(path.join(home, "browser"), 0o755);

  admin = await person("admin@example.com");
  const acme = await team(admin, "Acme");
  acmeSlug = (await getWorkspaceById(getDb(), acme))!.slug!;
  secret = (await createToken(getDb(), admin, { name: "real clients", workspaceId: acme, scopes: ["mcp"], expiresInDays: 7 })).secret;

  const port = await freePort();
  fixture = await startHttpServer(
    [path.join(FIXTURES, "session-http-server.mjs")],
    { PORT: String(port) },
    `http://127.0.0.1:${port}/stats`,
  );
  const sessionsId = (
    await createServer(getDb(), {
      workspaceId: acme,
      name: "sessions",
      config: parseServerConfig({ url: `http://127.0.0.1:${port}/mcp` }, "sessions"),
      createdBy: admin.id,
    })
  ).id;
  // The fixture is untrusted, so its tools ask first; `echo` runs without asking, as a member would set it.
  await setToolPolicy(getDb(), admin.id, { serverId: sessionsId, toolName: "echo", policy: "allow" });
  gateway = await serveGateway();
});

afterAll(async () => {
  await closeGatewayTest({ clients, gateway, fixtures: [fixture], dir });
  if (home) rmSync(home, { recursive: true, force: true });
});

describe("the Inspector's CLI with a personal access token", () => {
  it("lists and calls a server's tool through /mcp/<slug>/<server>, under its raw name", async () => {
    const { tools } = printed<{ tools: { name: string }[] }>(await inspector(perServerUrl(), secret, ["--method", "tools/list"]));
    expect(tools.map((tool) => tool.name)).toContain("echo");
    const result = printed<{ content: unknown; isError?: boolean }>(
      await inspector(perServerUrl(), secret, ["--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=from-inspector"]),
    );
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain("from-inspector");

    // Audited under the CLI's own client name, as sent in its `initialize`.
    await flushAudit(getDb());
    const audited = (await listRecentAudit(getDb(), 50)).find(
      (entry) => entry.action === "tool.called_by_hand" && (entry.detail as { client?: string }).client === "inspector-cli",
    );
    expect(audited?.detail).toMatchObject({ tool: "echo", via: "gateway" });
  });

  it("lists and calls the same tool through /mcp/<slug>, under the chat's name", async () => {
    const { tools } = printed<{ tools: { name: string }[] }>(await inspector(workspaceUrl(), secret, ["--method", "tools/list"]));
    expect(tools.map((tool) => tool.name)).toContain("mcp_sessions_echo");
    const result = printed<{ content: unknown; isError?: boolean }>(
      await inspector(workspaceUrl(), secret, [
        "--method",
        "tools/call",
        "--tool-name",
        "mcp_sessions_echo",
        "--tool-arg",
        "message=workspace-wide",
      ]),
    );
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain("workspace-wide");
  });

  it("exits non-zero on a wrong token, printing the gateway's refusal, and opens no browser", async () => {
    for (const url of [perServerUrl(), workspaceUrl()]) {
      const run = await inspector(url, "sbp_not-a-real-token", ["--method", "tools/list"]);
      expect(run.code).not.toBe(0);
      expect(run.stdout).not.toContain("echo");
      // The gateway's own refusal, as the CLI prints it.
      expect(run.stderr).toContain("token.invalid");
    }
    expect(existsSync(browserMark)).toBe(false);
  });
});

describe("mcp-remote with a personal access token, behind the SDK's stdio client", () => {
  it("lists and calls a server's tool through /mcp/<slug>/<server>", async () => {
    const { client, connected } = throughMcpRemote(perServerUrl(), secret);
    await connected;
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("echo");
    const result = await client.callTool({ name: "echo", arguments: { message: "via-mcp-remote" } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain("via-mcp-remote");
    // mcp-remote passes its stdio client's name on, marked as relayed: that is the name audited.
    await flushAudit(getDb());
    const audited = (await listRecentAudit(getDb(), 50)).find(
      (entry) =>
        entry.action === "tool.called_by_hand" && (entry.detail as { client?: string }).client?.startsWith("stdio-behind-mcp-remote"),
    );
    expect(audited?.detail).toMatchObject({ tool: "echo", via: "gateway", client: expect.stringContaining("via mcp-remote") });
  });

  it("lists and calls through /mcp/<slug>", async () => {
    const { client, connected } = throughMcpRemote(workspaceUrl(), secret);
    await connected;
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("mcp_sessions_echo");
    const result = await client.callTool({ name: "mcp_sessions_echo", arguments: { message: "remote-workspace" } });
    expect(textOf(result)).toContain("remote-workspace");
  });

  it("answers a wrong token by signing in with Switchboard's authorization server: it registers and opens the browser there", async () => {
    const remote = throughMcpRemote(perServerUrl(), "sbp_not-a-real-token");
    remote.connected.catch(() => undefined);
    // mcp-remote answers the 401 by following its resource_metadata to Switchboard's authorization
    // server, registering, and opening the browser at the authorization endpoint for this endpoint
    // (docs/gateway.md#the-authorization-server); nobody answers the consent page here.
    await vi.waitFor(() => expect(existsSync(browserMark)).toBe(true), { timeout: 30_000, interval: 200 });
    const opened = new URL(readFileSync(browserMark, "utf8").trim().split(/\s+/)[0]);
    expect(`${opened.origin}${opened.pathname}`).toBe(`${gateway!.base}/oauth/authorize`);
    expect(opened.searchParams.get("resource")).toBe(perServerUrl());
    expect(opened.searchParams.get("code_challenge_method")).toBe("S256");
    expect(opened.searchParams.get("client_id")).toBeTruthy();
    rmSync(browserMark, { force: true });
    await remote.client.close().catch(() => undefined);
  });
});
