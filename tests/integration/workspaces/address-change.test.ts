/**
 * Secrets belong to an origin (issue 28): an admin who moves a server to another address (scheme,
 * host, port) and sends the masked values back is refused; the server's stored header secret,
 * OAuth client secret and each member's own value never reach the new origin. Two capturing HTTP
 * servers record every request's headers; the engine's real pool makes the requests.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { listAudit } from "@/db/queries/audit";
import { putCredential } from "@/db/queries/credentials";
import { instanceKey } from "@/db/key-check";
import { getServerById } from "@/db/queries/servers";
import { SECRET_MASK } from "@/db/server-secrets";
import { encrypt } from "@/lib/crypto";
import { McpPool } from "@/lib/mcp";
import { createGuardedFetch, parseAllowedHosts } from "@/lib/net";
import { definitionFor } from "@/lib/servers/credential-mode";
import { MEMBER_VALUES_KIND } from "@/lib/servers/member-value-store";
import { memberValuesView, setMemberValues } from "@/lib/servers/member-values";
import { addServer, changeServer } from "@/lib/servers/service";
import { acceptInvitation, createInvitation } from "@/lib/workspaces/invitations";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { actorIn, person, team, type Person } from "./helpers";

const HEADER_SECRET = "team-header-secret-AAAA1111";
const CLIENT_SECRET = "oauth-client-secret-BBBB2222";
const BOB_SECRET = "bob-own-key-CCCC3333";
const CAROL_SECRET = "carol-legacy-key-DDDD4444";

/** An HTTP server that answers 404 to everything and keeps every request's headers. */
async function capture(): Promise<{ url: string; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(JSON.stringify({ url: req.url, headers: req.headers }));
    req.resume();
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/mcp`, seen, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

let dir: string;
let oldSite: Awaited<ReturnType<typeof capture>>;
let newSite: Awaited<ReturnType<typeof capture>>;
const pool = new McpPool({ fetch: createGuardedFetch({ allowedHosts: parseAllowedHosts("127.0.0.1") }) });
let admin: Person;
let bob: Person;
let carol: Person;
let acme: string;
let serverId = "";

beforeAll(async () => {
  dir = useTempDataDir();
  [oldSite, newSite] = await Promise.all([capture(), capture()]);
  admin = await person("admin@example.com");
  bob = await person("bob@example.com");
  carol = await person("carol@example.com");
  acme = await team(admin, "Acme");
  for (const user of [bob, carol])
    await acceptInvitation(
      getDb(),
      user,
      (await createInvitation(getDb(), await actorIn(admin, acme), { email: user.email, role: "member" }, { baseUrl: "http://app.test" }))
        .token,
    );
});
afterAll(async () => {
  await pool.closeAll();
  await Promise.all([oldSite?.close(), newSite?.close()]);
  removeTempDataDir(dir);
});

/** Let the engine connect as `user` (it fails: the sites answer 404), so the sites record what it sent. */
async function reach(user: Person) {
  const record = (await getServerById(getDb(), { id: serverId, workspaceId: acme }))!;
  await pool.close(user.id, serverId);
  await pool.discover(user.id, [await definitionFor(getDb(), user.id, record)]);
}

function config(url: string, values: { key: string; member: string; clientSecret: string }) {
  return {
    url,
    headers: { "x-api-key": values.key, "x-member-key": values.member },
    oauth: { client_id: "switchboard-test", client_secret: values.clientSecret },
  };
}

describe("a URL change never delivers a stored secret to the new origin", () => {
  it("the secrets reach the origin they were entered for", async () => {
    serverId = (
      await addServer(getDb(), await actorIn(admin, acme), {
        name: "api",
        config: config(oldSite.url, { key: HEADER_SECRET, member: "unused-default", clientSecret: CLIENT_SECRET }),
        memberKeys: ["headers.x-member-key"],
      })
    ).id;
    await setMemberValues(getDb(), await actorIn(bob, acme), serverId, { "headers.x-member-key": BOB_SECRET });
    // Carol's value was stored before values carried their origin (a bare string).
    await putCredential(
      getDb(),
      { userId: carol.id, serverId, kind: MEMBER_VALUES_KIND },
      { valueEnc: encrypt(JSON.stringify({ "headers.x-member-key": CAROL_SECRET }), instanceKey()), expiresAt: null },
    );
    await reach(bob);
    await reach(carol);
    const seen = oldSite.seen.join("\n");
    for (const secret of [HEADER_SECRET, BOB_SECRET, CAROL_SECRET]) expect(seen).toContain(secret);
  });

  it("masked values sent back with a new address are refused, field by field", async () => {
    const edit = async (clientSecret: string, key: string) =>
      await changeServer(getDb(), await actorIn(admin, acme), serverId, {
        config: config(newSite.url, { key, member: "x", clientSecret }),
      });
    await expect(edit(SECRET_MASK, SECRET_MASK)).rejects.toThrow(
      expect.objectContaining({
        code: "server.secret_moved",
        field: "config.headers.x-api-key",
        message: expect.stringMatching(/enter the API key again for the new address/),
      }),
    );
    await expect(edit(SECRET_MASK, "new-key-for-new-site")).rejects.toThrow(
      expect.objectContaining({ code: "server.secret_moved", field: "config.oauth.client_secret" }),
    );
    // Same origin, another path: the masks keep their values, as before.
    const samePlace = oldSite.url.replace("/mcp", "/v2/mcp");
    await changeServer(getDb(), await actorIn(admin, acme), serverId, {
      config: config(samePlace, { key: SECRET_MASK, member: SECRET_MASK, clientSecret: SECRET_MASK }),
    });
    const record = (await getServerById(getDb(), { id: serverId, workspaceId: acme }))!;
    expect((await definitionFor(getDb(), admin.id, record)).config.headers?.["x-api-key"]).toBe(HEADER_SECRET);
  });

  it("after the move with values entered again, the new origin sees none of the old secrets", async () => {
    await changeServer(getDb(), await actorIn(admin, acme), serverId, {
      config: config(newSite.url, { key: "new-key-for-new-site", member: "new-default", clientSecret: "new-client-secret" }),
    });
    await reach(bob);
    await reach(carol);
    await reach(admin);
    const seen = newSite.seen.join("\n");
    expect(newSite.seen.length).toBeGreaterThan(0);
    expect(seen).toContain("new-key-for-new-site");
    for (const secret of [HEADER_SECRET, CLIENT_SECRET, BOB_SECRET, CAROL_SECRET]) expect(seen).not.toContain(secret);
  });

  it("each member's value is held until they confirm it for the new address", async () => {
    expect(await memberValuesView(getDb(), await actorIn(bob, acme), serverId)).toEqual({
      origin: new URL(newSite.url).origin,
      keys: [{ key: "headers.x-member-key", set: true, held: true }],
    });
    expect((await memberValuesView(getDb(), await actorIn(carol, acme), serverId)).keys[0]).toMatchObject({ held: true });
    await setMemberValues(getDb(), await actorIn(bob, acme), serverId, { "headers.x-member-key": SECRET_MASK });
    expect((await memberValuesView(getDb(), await actorIn(bob, acme), serverId)).keys[0]).toMatchObject({ set: true, held: false });
    await reach(bob);
    await reach(carol);
    const seen = newSite.seen.join("\n");
    expect(seen).toContain(BOB_SECRET); // bob confirmed: his choice
    expect(seen).not.toContain(CAROL_SECRET); // carol did not
  });

  it("the audit records the move with both origins and names the creator", async () => {
    const [entry] = (await listAudit(getDb(), { workspaceId: acme, action: "server.address_change" })).entries;
    expect(entry).toMatchObject({
      actorId: admin.id,
      target: serverId,
      detail: {
        origin: { from: new URL(oldSite.url).origin, to: new URL(newSite.url).origin },
        credentials: { from: "per_member", to: "per_member" },
        heldMembers: 2,
        notify: admin.id,
      },
    });
    const update = (await listAudit(getDb(), { workspaceId: acme, action: "server.update" })).entries[0];
    expect(update.detail).toMatchObject({ origin: { from: new URL(oldSite.url).origin, to: new URL(newSite.url).origin } });
  });
});
