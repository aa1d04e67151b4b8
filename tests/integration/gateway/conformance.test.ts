/**
 * The official MCP conformance suite's SERVER scenarios (0.2.0-alpha.12, `--requirements` of each
 * revision) through the per-server gateway (issue 33, docs/gateway.md#conformance): run against the
 * conformance fixture directly and against `/mcp/<slug>/<server>` proxying it, at 2025-11-25 and at
 * 2026-07-28. The gateway must pass every scenario the fixture passes, save the gaps listed in
 * GATEWAY_GAPS with their reason; a listed gap that passes fails the test, so the list only shrinks.
 *
 * The suite cannot send a header in server mode, so the gateway is reached through a listener that
 * adds the member's personal access token as `Authorization: Bearer`, as a client's configured
 * header would (tests/integration/gateway/helpers.ts); the route checks it as for any client.
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
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { runServerRequirements, type ServerScenarioResult } from "../conformance/runner";
import { freePort, ROOT, startHttpServer, stopProcess } from "../mcp/helpers";
import { person, team } from "../workspaces/helpers";
import { type ServedGateway, serveGateway } from "./helpers";

vi.mock("server-only", () => ({}));

process.env.SWITCHBOARD_ALLOWED_HOSTS = "127.0.0.1,localhost";

const REVISIONS = ["2025-11-25", "2026-07-28"] as const;

/**
 * Scenarios the fixture passes directly that fail through the gateway, per revision, with the reason
 * (also in docs/gateway.md#conformance). Keep in step with the doc.
 */
const GATEWAY_GAPS: Record<(typeof REVISIONS)[number], Record<string, string>> = {
  "2025-11-25": {},
  "2026-07-28": {},
};

let dir = "";
let fixture: ChildProcess | undefined;
let gateway: ServedGateway | undefined;
let fixtureUrl = "";
let gatewayUrl = "";

beforeAll(async () => {
  dir = useTempDataDir();
  const owner = await person("owner@example.com");
  const workspace = await team(owner, "Conformance");
  const slug = (await getWorkspaceById(getDb(), workspace))!.slug!;
  const port = await freePort();
  fixture = await startHttpServer(
    [path.join(ROOT, "tests/fixtures/conformance-server/server.mjs")],
    { PORT: String(port) },
    `http://127.0.0.1:${port}/health`,
  );
  // The suite's DNS-rebinding scenario only tests servers it reaches at a loopback name.
  fixtureUrl = `http://localhost:${port}/mcp`;
  const server = await createServer(getDb(), {
    workspaceId: workspace,
    name: "conformance",
    config: parseServerConfig({ url: `http://127.0.0.1:${port}/mcp` }, "conformance"),
    createdBy: owner.id,
  });
  const secret = (await createToken(getDb(), owner, { name: "conformance", workspaceId: workspace, scopes: ["mcp"], expiresInDays: 7 }))
    .secret;
  gateway = await serveGateway(secret);
  gatewayUrl = `${gateway.base.replace("127.0.0.1", "localhost")}/mcp/${slug}/conformance`;

  // The server is untrusted, so its tools ask before each call; the member allows them all, as a
  // person would on the Tools page, so the scenarios exercise the proxy rather than the approval.
  const client = new Client({ name: "setup", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(gatewayUrl)));
  for (const tool of (await client.listTools()).tools) {
    await setToolPolicy(getDb(), owner.id, { serverId: server.id, toolName: tool.name, policy: "allow" });
  }
  await client.close();
});

afterAll(async () => {
  const { closeGlobalPool } = await import("@/lib/mcp");
  await closeGlobalPool();
  await gateway?.close();
  await stopProcess(fixture);
  removeTempDataDir(dir);
});

const passing = (results: Map<string, ServerScenarioResult>) => [...results].filter(([, r]) => r.passed).map(([name]) => name).sort();

describe.each(REVISIONS)("conformance server scenarios at %s", (revision) => {
  it(
    "pass through /mcp/<slug>/<server> wherever they pass against the fixture directly, save the listed gaps",
    async () => {
      const direct = await runServerRequirements(fixtureUrl, revision);
      const through = await runServerRequirements(gatewayUrl, revision);
      const directPassing = passing(direct);
      const gatewayPassing = passing(through);
      const failing = directPassing.filter((name) => !gatewayPassing.includes(name));
      console.log(
        `${revision}: ${direct.size} scenarios run; direct ${directPassing.length} pass, gateway ${gatewayPassing.length} pass; failing through the gateway:`,
        failing.map((name) => `${name}: ${through.get(name)?.checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING").map((c) => `${c.id} ${c.description} ${(c as { errorMessage?: string }).errorMessage ?? ""}`).join(" | ")}`),
      );
      // The fixture is sound: it passes every scenario the revision requires but the tasks extension.
      expect(directPassing.length).toBeGreaterThan(revision === "2025-11-25" ? 30 : 35);
      expect(failing).toEqual(Object.keys(GATEWAY_GAPS[revision]).sort());
      expect(gatewayPassing.length).toBeGreaterThanOrEqual(directPassing.length - Object.keys(GATEWAY_GAPS[revision]).length);
    },
    20 * 60_000,
  );
});
