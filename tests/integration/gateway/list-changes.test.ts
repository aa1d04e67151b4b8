/**
 * `list_changed` through the gateway (docs/gateway.md#list-changes), on the run's database with the
 * real route handlers, the app's pool and a real MCP server that announces a tools change (the
 * hostile fixture's `dup-tools` mode over SSE: its `add_dups` adds tools and sends `tools/list_changed`): a
 * 2025-11-25 session at `/mcp/<slug>/<server>` and at `/mcp/<slug>` hears it once the engine has
 * re-listed, and lists again through the gateway's gate; a 2026-07-28 client is not offered it.
 */
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { createServer } from "@/db/queries/servers";
import { setToolPolicy } from "@/db/queries/tool-policies";
import { getWorkspaceById } from "@/db/queries/workspaces";
import { createToken } from "@/lib/auth/personal-tokens";
import { parseServerConfig } from "@/lib/mcp/config";
import { useTempDataDir } from "../../helpers/temp-data-dir";
import { FIXTURES, freePort, startHttpServer } from "../mcp/helpers";
import { type Person, person, team } from "../workspaces/helpers";
import { closeGatewayTest, type ServedGateway, serveGateway } from "./helpers";

// Route modules and the use cases are marked server-only (a bundler marker that throws outside Next's server build).
vi.mock("server-only", () => ({}));

process.env.SWITCHBOARD_ALLOWED_HOSTS = "127.0.0.1,localhost";

let dir = "";
let fixture: ChildProcess | undefined;
let gateway: ServedGateway | undefined;
let admin: Person;
let acmeSlug = "";
let secret = "";
const clients: Client[] = [];

/** A client of `endpoint` (a path under the gateway) counting the `tools/list_changed` it hears. */
async function connect(endpoint: string, modern = false): Promise<{ client: Client; heard: () => number }> {
  const client = new Client(
    { name: "list-changes-test", version: "1.0.0" },
    modern ? { versionNegotiation: { mode: { pin: "2026-07-28" as const } } } : {},
  );
  let heard = 0;
  client.setNotificationHandler("notifications/tools/list_changed", async () => {
    heard++;
  });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${gateway!.base}${endpoint}`), {
      requestInit: { headers: { authorization: `Bearer ${secret}` } },
    }),
  );
  clients.push(client);
  return { client, heard: () => heard };
}

beforeAll(async () => {
  dir = useTempDataDir();
  admin = await person("admin@example.com");
  const acme = await team(admin, "Acme");
  acmeSlug = (await getWorkspaceById(getDb(), acme))!.slug!;
  const port = await freePort();
  fixture = await startHttpServer([path.join(FIXTURES, "hostile-http.mjs")], { PORT: String(port) }, `http://127.0.0.1:${port}/stats`);
  const serverId = (
    await createServer(getDb(), {
      workspaceId: acme,
      name: "changing",
      config: parseServerConfig({ url: `http://127.0.0.1:${port}/mcp/dup-tools?sse=1` }, "changing"),
      createdBy: admin.id,
    })
  ).id;
  // The server is untrusted: the tool that changes the list runs without asking for this member.
  await setToolPolicy(getDb(), admin.id, { serverId, toolName: "add_dups", policy: "allow" });
  secret = (await createToken(getDb(), admin, { name: "list changes", workspaceId: acme, scopes: ["mcp"], expiresInDays: 7 })).secret;
  gateway = await serveGateway();
});

afterAll(async () => await closeGatewayTest({ clients, gateway, fixtures: [fixture], dir }));

describe("list_changed through the gateway", () => {
  it("a 2025-11-25 session at either endpoint hears a server's tools change, after the engine re-listed it; a 2026-07-28 client is not offered it", async () => {
    const perServer = await connect(`/mcp/${acmeSlug}/changing`);
    const workspace = await connect(`/mcp/${acmeSlug}`);
    const modern = await connect(`/mcp/${acmeSlug}/changing`, true);
    expect(perServer.client.getServerCapabilities()?.tools?.listChanged).toBe(true);
    expect(workspace.client.getServerCapabilities()?.tools?.listChanged).toBe(true);
    expect(modern.client.getServerCapabilities()?.tools?.listChanged).toBeUndefined();
    const before = (await perServer.client.listTools()).tools.map((tool) => tool.name);
    expect(before).not.toContain("dup");
    expect(perServer.heard()).toBe(0);

    await perServer.client.callTool({ name: "add_dups", arguments: {} });
    await vi.waitFor(() => expect(perServer.heard()).toBeGreaterThan(0), { timeout: 10_000 });
    await vi.waitFor(() => expect(workspace.heard()).toBeGreaterThan(0), { timeout: 10_000 });
    // Told after the re-list: the next listing already has the change, as the tool gate lets it
    // through (the new tools of a pinned server wait for review, so they are left out).
    const after = (await perServer.client.listTools()).tools.map((tool) => tool.name);
    expect(after).toContain("add_dups");
    expect(modern.heard()).toBe(0);
  });
});
