/**
 * URLs with secrets (issue 28): a server URL with a token in its path, a key-like query parameter,
 * or marked `secret_url` is stored encrypted and shown masked (origin kept) in every response to a
 * member, in exports and in the engine's errors, while the engine still reaches the real URL. A
 * capturing HTTP server shows what the engine sent.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { getServerById } from "@/db/queries/servers";
import { mcpServers } from "@/db/schema";
import { McpPool } from "@/lib/mcp";
import { createGuardedFetch, parseAllowedHosts } from "@/lib/net";
import { definitionFor } from "@/lib/servers/credential-mode";
import { exportWorkspaceServers } from "@/lib/servers/import-service";
import { addServer, changeServer, listServers, serverViewById } from "@/lib/servers/service";
import { acceptInvitation, createInvitation } from "@/lib/workspaces/invitations";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { actorIn, person, team, type Person } from "./helpers";
import { all } from "../../../db/exec";

const PATH_TOKEN = "pathTOKEN0123456789abcdef";
const QUERY_KEY = "queryKEY9876543210";
const MARKED = "markedHOOK-5555";
const SECRETS = [PATH_TOKEN, QUERY_KEY, MARKED];

let dir: string;
let site: Server;
let base = "";
const requested: string[] = [];
const pool = new McpPool({ fetch: createGuardedFetch({ allowedHosts: parseAllowedHosts("127.0.0.1") }) });
let admin: Person;
let bob: Person;
let acme: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  dir = useTempDataDir();
  site = createServer((req, res) => {
    requested.push(req.url ?? "");
    req.resume();
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  admin = await person("admin@example.com");
  bob = await person("bob@example.com");
  acme = await team(admin, "Acme");
  await acceptInvitation(
    getDb(),
    bob,
    (await createInvitation(getDb(), await actorIn(admin, acme), { email: bob.email, role: "member" }, { baseUrl: "http://app.test" }))
      .token,
  );
});
afterAll(async () => {
  await pool.closeAll();
  await new Promise((resolve) => site?.close(resolve));
  removeTempDataDir(dir);
});

async function add(name: string, config: Record<string, unknown>) {
  ids[name] = (await addServer(getDb(), await actorIn(admin, acme), { name, config })).id;
}

describe("a secret URL never reaches a member, an export or an error", () => {
  it("stores such URLs encrypted, masks them for everyone, and the engine still reaches them", async () => {
    await add("path", { url: `${base}/s/${PATH_TOKEN}/mcp` });
    await add("query", { url: `${base}/mcp?api_key=${QUERY_KEY}&region=eu` });
    await add("marked", { url: `${base}/hooks/${MARKED}/mcp`, secret_url: true });
    for (const row of await all(getDb().select().from(mcpServers).where(eq(mcpServers.workspaceId, acme)))) {
      const raw = JSON.stringify(row);
      for (const secret of SECRETS) expect(raw).not.toContain(secret);
    }
    const views = await listServers(getDb(), await actorIn(bob, acme));
    expect(views.map((v) => v.config.url).sort()).toEqual(
      [`${base}/********`, `${base}/mcp?api_key=********&region=eu`, `${base}/s/********/mcp`].sort(),
    );
    for (const name of Object.keys(ids)) {
      const record = (await getServerById(getDb(), { id: ids[name], workspaceId: acme }))!;
      await pool.discover(bob.id, [await definitionFor(getDb(), bob.id, record)]);
    }
    expect(requested).toEqual(
      expect.arrayContaining([`/s/${PATH_TOKEN}/mcp`, `/mcp?api_key=${QUERY_KEY}&region=eu`, `/hooks/${MARKED}/mcp`]),
    );
  });

  it("nothing a member is answered holds them: views, statuses with their errors, exports", async () => {
    const responses = [
      await listServers(getDb(), await actorIn(bob, acme)),
      await Promise.all(Object.values(ids).map(async (id) => await serverViewById(getDb(), await actorIn(bob, acme), id))),
      await Promise.all(
        Object.values(ids).map(async (id) =>
          pool.session(bob.id, await definitionFor(getDb(), bob.id, (await getServerById(getDb(), { id, workspaceId: acme }))!)).status(),
        ),
      ),
      await exportWorkspaceServers(getDb(), await actorIn(bob, acme), "yaml"),
      await exportWorkspaceServers(getDb(), await actorIn(bob, acme), "json"),
    ];
    const text = JSON.stringify(responses);
    // The engine's errors quote the URL they failed on: masked there too, origin kept.
    const errors = (responses[2] as Array<{ lastError: { message: string } | null }>).map((status) => status.lastError?.message ?? "");
    for (const message of errors) expect(message).toContain(base);
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    expect(await exportWorkspaceServers(getDb(), await actorIn(bob, acme), "yaml")).toContain("${input:query.url}");
  });

  it("an edit that sends the masked URL back keeps it; another masked URL is refused", async () => {
    const masked = (await serverViewById(getDb(), await actorIn(admin, acme), ids.query)).config.url;
    await changeServer(getDb(), await actorIn(admin, acme), ids.query, { config: { url: masked, timeout: 30 } });
    const record = (await getServerById(getDb(), { id: ids.query, workspaceId: acme }))!;
    expect((await definitionFor(getDb(), admin.id, record)).config.url).toBe(`${base}/mcp?api_key=${QUERY_KEY}&region=eu`);
    await expect(
      changeServer(getDb(), await actorIn(admin, acme), ids.query, { config: { url: `${base}/other?api_key=********` } }),
    ).rejects.toThrow(expect.objectContaining({ code: "server.invalid_config", field: "config.url" }));
  });
});
