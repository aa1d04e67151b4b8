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
import { updateServerTrust } from "@/db/queries/server-trust";
import { createServer } from "@/db/queries/servers";
import { setToolPolicy } from "@/db/queries/tool-policies";
import { getWorkspaceById } from "@/db/queries/workspaces";
import { createToken } from "@/lib/auth/personal-tokens";
import { parseServerConfig } from "@/lib/mcp/config";
import { useTempDataDir } from "../../helpers/temp-data-dir";
import { runServerRequirements, type ServerScenarioResult } from "../conformance/runner";
import { freePort, ROOT, startHttpServer } from "../mcp/helpers";
import { person, team } from "../workspaces/helpers";
import { type ServedGateway, serveGateway, closeGatewayTest } from "./helpers";

vi.mock("server-only", () => ({}));

process.env.SWITCHBOARD_ALLOWED_HOSTS = "127.0.0.1,localhost";

const REVISIONS = ["2025-11-25", "2026-07-28"] as const;

/**
 * Scenarios the fixture passes directly that fail through the gateway, per revision, with the reason
 * (also in docs/gateway.md#conformance). Keep in step with the doc.
 */
const PUSH_REQUEST =
  "the fixture's tool sends its request mid-call, which only a 2025-11-25 connection carries; the engine speaks 2026-07-28 to the fixture, " +
  "whose SDK refuses it there (a 2025-era server's questions and a 2026-07-28 server's input_required rounds do reach the client: client-questions.test.ts)";
const SUBSCRIBE = "the fixture speaks 2026-07-28 to the engine, which has no resources/subscribe (relayed for 2025-era upstreams only)";
const GATEWAY_GAPS: Record<(typeof REVISIONS)[number], Record<string, string>> = {
  "2025-11-25": {
    "elicitation-sep1034-defaults": PUSH_REQUEST,
    "elicitation-sep1330-enums": PUSH_REQUEST,
    "tools-call-elicitation": PUSH_REQUEST,
    "tools-call-sampling": PUSH_REQUEST,
    "resources-subscribe": SUBSCRIBE,
    "resources-unsubscribe": SUBSCRIBE,
  },
  "2026-07-28": {},
};

let dir = "";
let fixture: ChildProcess | undefined;
let gateway: ServedGateway | undefined;
let fixtureUrl = "";
let gatewayUrl = "";
let heldUrl = "";
// The fixture's own results per revision, run once.
const directRuns = new Map<string, Promise<Map<string, ServerScenarioResult>>>();
const direct = (revision: (typeof REVISIONS)[number]) => {
  if (!directRuns.has(revision)) directRuns.set(revision, runServerRequirements(fixtureUrl, revision));
  return directRuns.get(revision)!;
};

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
  const secret = (await createToken(getDb(), owner, { name: "conformance", workspaceId: workspace, scopes: ["mcp"], expiresInDays: 7 }))
    .secret;
  gateway = await serveGateway(secret);
  const endpoint = (name: string) => `${gateway!.base.replace("127.0.0.1", "localhost")}/mcp/${slug}/${name}`;
  gatewayUrl = endpoint("conformance");
  heldUrl = endpoint("conformance-2025");

  for (const [name, extra] of [
    ["conformance", {}],
    // The same fixture, held to the 2025-11-25 handshake (docs/protocol.md#holding-a-server-to-2025-11-25).
    ["conformance-2025", { protocol: "2025-11-25" }],
  ] as const) {
    const server = await createServer(getDb(), {
      workspaceId: workspace,
      name,
      config: parseServerConfig({ url: `http://127.0.0.1:${port}/mcp`, ...extra }, name),
      createdBy: owner.id,
    });
    // The server is untrusted, so its tools ask before each call; the member allows them all, as a
    // person would on the Tools page, so the scenarios exercise the proxy rather than the approval.
    const client = new Client({ name: "setup", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(endpoint(name))));
    for (const tool of (await client.listTools()).tools) {
      await setToolPolicy(getDb(), owner.id, { serverId: server.id, toolName: tool.name, policy: "allow" });
    }
    // And switches the server's lethal-trifecta check off (the Servers page's switch): a scenario's
    // second call follows the first one's result, which would otherwise ask again.
    await updateServerTrust(getDb(), server.id, { trifectaCheck: false }, owner.id);
    await client.close();
  }
});

afterAll(async () => await closeGatewayTest({ gateway, fixtures: [fixture], dir }));

const passing = (results: Map<string, ServerScenarioResult>) =>
  [...results]
    .filter(([, r]) => r.passed)
    .map(([name]) => name)
    .sort();

describe.each(REVISIONS)("conformance server scenarios at %s", (revision) => {
  it(
    "pass through /mcp/<slug>/<server> wherever they pass against the fixture directly, save the listed gaps",
    async () => {
      const fixtureResults = await direct(revision);
      const through = await runServerRequirements(gatewayUrl, revision);
      const directPassing = passing(fixtureResults);
      const gatewayPassing = passing(through);
      const failing = directPassing.filter((name) => !gatewayPassing.includes(name));
      // The counts for the record (docs/gateway.md#conformance), and what failed where, if anything unexpected did.
      console.log(
        `${revision}: ${fixtureResults.size} scenarios run; direct ${directPassing.length} pass, through the gateway ${gatewayPassing.length}`,
      );
      for (const name of failing.filter((name) => !(name in GATEWAY_GAPS[revision]))) {
        const bad = through.get(name)?.checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING") ?? [];
        console.log(
          `unexpected failure through the gateway: ${name}: ${bad.map((c) => `${c.id}: ${c.errorMessage ?? c.description}`).join(" | ")}`,
        );
      }
      // The fixture is sound: it passes every scenario the revision requires but the tasks extension.
      expect(directPassing.length).toBeGreaterThan(revision === "2025-11-25" ? 30 : 35);
      expect(failing).toEqual(Object.keys(GATEWAY_GAPS[revision]).sort());
      expect(gatewayPassing.length).toBeGreaterThanOrEqual(directPassing.length - Object.keys(GATEWAY_GAPS[revision]).length);
    },
    20 * 60_000,
  );
});

describe("conformance server scenarios at 2025-11-25, the server held to 2025-11-25", () => {
  it(
    "pass through /mcp/<slug>/<server> wherever they pass against the fixture directly, with no gap",
    async () => {
      const directPassing = passing(await direct("2025-11-25"));
      const through = await runServerRequirements(heldUrl, "2025-11-25");
      const failing = directPassing.filter((name) => !passing(through).includes(name));
      console.log(`2025-11-25, held: direct ${directPassing.length} pass, through the gateway ${passing(through).length}`);
      for (const name of failing) {
        const bad = through.get(name)?.checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING") ?? [];
        console.log(`failure through the gateway: ${name}: ${bad.map((c) => `${c.id}: ${c.errorMessage ?? c.description}`).join(" | ")}`);
      }
      expect(failing).toEqual([]);
    },
    20 * 60_000,
  );
});
