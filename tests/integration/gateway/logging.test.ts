/**
 * The upstream's log through the gateway (docs/gateway.md#logging), on the run's database with the
 * real route handlers, the app's pool and the conformance fixture (its `test_tool_with_logging`
 * logs three `info` entries during the call): a 2025-11-25 session at either endpoint gets them
 * with the call, at the level it set; a 2026-07-28 request only when it carries a log level.
 */
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import type { Client, LoggingMessageNotification } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { updateServerTrust } from "@/db/queries/server-trust";
import { createServer } from "@/db/queries/servers";
import { setToolPolicy } from "@/db/queries/tool-policies";
import { getWorkspaceById } from "@/db/queries/workspaces";
import { createToken } from "@/lib/auth/personal-tokens";
import { parseServerConfig } from "@/lib/mcp/config";
import { useTempDataDir } from "../../helpers/temp-data-dir";
import { freePort, ROOT, startHttpServer } from "../mcp/helpers";
import { person, team } from "../workspaces/helpers";
import { closeGatewayTest, connectClient, type ServedGateway, serveGateway } from "./helpers";

vi.mock("server-only", () => ({}));

process.env.SWITCHBOARD_ALLOWED_HOSTS = "127.0.0.1,localhost";

const STEPS = ["Tool execution started", "Tool processing data", "Tool execution completed"];

let dir = "";
let fixture: ChildProcess | undefined;
let gateway: ServedGateway | undefined;
let slug = "";
let secret = "";
const clients: Client[] = [];

/** A client of `endpoint` (a path under the gateway) keeping the log messages it hears. */
async function connect(endpoint: string, modern = false): Promise<{ client: Client; heard: LoggingMessageNotification["params"][] }> {
  const client = await connectClient(`${gateway!.base}${endpoint}`, secret, { name: "logging-test", modern });
  clients.push(client);
  const heard: LoggingMessageNotification["params"][] = [];
  // Entries arrive only during calls, all made after this.
  client.setNotificationHandler("notifications/message", async (notification) => {
    heard.push(notification.params);
  });
  return { client, heard };
}

beforeAll(async () => {
  dir = useTempDataDir();
  const owner = await person("owner@example.com");
  const workspace = await team(owner, "Logs");
  slug = (await getWorkspaceById(getDb(), workspace))!.slug!;
  const port = await freePort();
  fixture = await startHttpServer(
    [path.join(ROOT, "tests/fixtures/conformance-server/server.mjs")],
    { PORT: String(port) },
    `http://127.0.0.1:${port}/health`,
  );
  const server = await createServer(getDb(), {
    workspaceId: workspace,
    name: "conformance",
    config: parseServerConfig({ url: `http://127.0.0.1:${port}/mcp` }, "conformance"),
    createdBy: owner.id,
  });
  // The server is untrusted: the logging tool runs without asking for this member, also after the
  // session's last result (the lethal-trifecta check, switched off as on the Servers page).
  await setToolPolicy(getDb(), owner.id, { serverId: server.id, toolName: "test_tool_with_logging", policy: "allow" });
  await updateServerTrust(getDb(), server.id, { trifectaCheck: false }, owner.id);
  secret = (await createToken(getDb(), owner, { name: "logging", workspaceId: workspace, scopes: ["mcp"], expiresInDays: 7 })).secret;
  gateway = await serveGateway();
});

afterAll(async () => await closeGatewayTest({ clients, gateway, fixtures: [fixture], dir }));

describe("the upstream's log through the gateway", () => {
  it("a 2025-11-25 session at the per-server endpoint gets the call's entries with the call, at the level it set", async () => {
    const { client, heard } = await connect(`/mcp/${slug}/conformance`);
    expect(client.getServerCapabilities()?.logging).toEqual({});
    await client.setLoggingLevel("info");
    const result = await client.callTool({ name: "test_tool_with_logging", arguments: {} });
    expect(result.isError).toBeFalsy();
    // On the call's own stream: every entry is in before the result is.
    expect(heard.map((entry) => entry.data)).toEqual(STEPS);
    expect(heard.every((entry) => entry.level === "info")).toBe(true);

    await client.setLoggingLevel("error");
    await client.callTool({ name: "test_tool_with_logging", arguments: {} });
    expect(heard).toHaveLength(STEPS.length);
  });

  it("the workspace endpoint names the server as the entries' logger", async () => {
    const { client, heard } = await connect(`/mcp/${slug}`);
    expect(client.getServerCapabilities()?.logging).toEqual({});
    await client.callTool({ name: "mcp_conformance_test_tool_with_logging", arguments: {} });
    expect(heard.map((entry) => entry.data)).toEqual(STEPS);
    expect(heard.every((entry) => entry.logger === "conformance")).toBe(true);
  });

  it("a 2026-07-28 request gets the entries only when it carries a log level", async () => {
    const { client, heard } = await connect(`/mcp/${slug}/conformance`, true);
    await client.callTool({ name: "test_tool_with_logging", arguments: {} });
    expect(heard).toEqual([]);
    await client.callTool({ name: "test_tool_with_logging", arguments: {}, _meta: { "io.modelcontextprotocol/logLevel": "info" } });
    expect(heard.map((entry) => entry.data)).toEqual(STEPS);
  });
});
