/**
 * A client's cancellation through the gateway (docs/gateway.md#what-a-request-goes-through), on the
 * run's database with the real route handlers, the app's pool and a real MCP server (the session
 * fixture's `wait`, which counts the calls cancelled under it): a call the client gives up on ends
 * at the upstream too, at both endpoints and both revisions, and the session goes on serving.
 */
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { updateServerTrust } from "@/db/queries/server-trust";
import { createServer } from "@/db/queries/servers";
import { setToolPolicy } from "@/db/queries/tool-policies";
import { getWorkspaceById } from "@/db/queries/workspaces";
import { createToken } from "@/lib/auth/personal-tokens";
import { parseServerConfig } from "@/lib/mcp/config";
import { useTempDataDir } from "../../helpers/temp-data-dir";
import { FIXTURES, freePort, startHttpServer } from "../mcp/helpers";
import { person, team } from "../workspaces/helpers";
import { closeGatewayTest, connectClient, type ServedGateway, serveGateway, textOf } from "./helpers";

vi.mock("server-only", () => ({}));

process.env.SWITCHBOARD_ALLOWED_HOSTS = "127.0.0.1,localhost";

let dir = "";
let fixture: ChildProcess | undefined;
let fixtureBase = "";
let gateway: ServedGateway | undefined;
let slug = "";
let secret = "";
const clients: Client[] = [];

/** How many `wait` calls the fixture has seen cancelled. */
async function cancelled(): Promise<number> {
  return ((await (await fetch(`${fixtureBase}/stats`)).json()) as { cancelled: number }).cancelled;
}

async function connect(endpoint: string, modern: boolean): Promise<Client> {
  const client = await connectClient(`${gateway!.base}${endpoint}`, secret, { name: "cancellation-test", modern });
  clients.push(client);
  return client;
}

beforeAll(async () => {
  dir = useTempDataDir();
  const owner = await person("owner@example.com");
  const workspace = await team(owner, "Cancels");
  slug = (await getWorkspaceById(getDb(), workspace))!.slug!;
  const port = await freePort();
  fixtureBase = `http://127.0.0.1:${port}`;
  fixture = await startHttpServer([path.join(FIXTURES, "session-http-server.mjs")], { PORT: String(port) }, `${fixtureBase}/stats`);
  const server = await createServer(getDb(), {
    workspaceId: workspace,
    name: "sessions",
    config: parseServerConfig({ url: `${fixtureBase}/mcp` }, "sessions"),
    createdBy: owner.id,
  });
  // Untrusted: `wait` and `echo` run without asking for this member, also one after another (the
  // lethal-trifecta check switched off, as on the Servers page).
  for (const toolName of ["wait", "echo"]) await setToolPolicy(getDb(), owner.id, { serverId: server.id, toolName, policy: "allow" });
  await updateServerTrust(getDb(), server.id, { trifectaCheck: false }, owner.id);
  secret = (await createToken(getDb(), owner, { name: "cancels", workspaceId: workspace, scopes: ["mcp"], expiresInDays: 7 })).secret;
  gateway = await serveGateway();
});

afterAll(async () => await closeGatewayTest({ clients, gateway, fixtures: [fixture], dir }));

describe("cancellation through the gateway", () => {
  it.each([
    ["the per-server endpoint", "/sessions", "wait", "echo", false],
    ["the workspace endpoint", "", "mcp_sessions_wait", "mcp_sessions_echo", false],
    ["the per-server endpoint at 2026-07-28", "/sessions", "wait", "echo", true],
  ])("a call the client cancels at %s ends at the upstream, and the client goes on", async (_label, suffix, wait, echo, modern) => {
    const client = await connect(`/mcp/${slug}${suffix}`, modern);
    const before = await cancelled();
    const abort = new AbortController();
    const call = client.callTool({ name: wait, arguments: { ms: 60_000 } }, { signal: abort.signal });
    // The call is under way at the upstream before it is given up.
    await new Promise((resolve) => setTimeout(resolve, 500));
    abort.abort("the user pressed stop");
    await expect(call).rejects.toThrow();
    await vi.waitFor(async () => expect(await cancelled()).toBe(before + 1), { timeout: 10_000 });
    expect(textOf(await client.callTool({ name: echo, arguments: { message: "still here" } }))).toContain("echo: still here");
  });
});
