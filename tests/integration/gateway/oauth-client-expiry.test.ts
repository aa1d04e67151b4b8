/**
 * Registered clients of the authorization server expire when nobody uses them
 * (docs/gateway.md#the-authorization-server): a client registered through `/oauth/reg` is kept 30
 * days; a grant (a user's consent) keeps it until 30 days after the grant's end; the expiry of old
 * rows then deletes an unused one and leaves a used one. On the run's database, through the real
 * registration endpoint and the adapter oidc-provider writes through.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { getOAuthServerRecord } from "@/db/queries/oauth-server";
import { deleteExpiredRows } from "@/db/queries/row-expiry";
import { adapterOver, recordKey, UNUSED_CLIENT_MS } from "@/lib/oauth-server/adapter";
import { closeGatewayTest, type ServedGateway, serveGateway } from "./helpers";
import { useTempDataDir } from "../../helpers/temp-data-dir";
import { person } from "../workspaces/helpers";

// Route modules and the use cases are marked server-only (a bundler marker that throws outside Next's server build).
vi.mock("server-only", () => ({}));

process.env.SWITCHBOARD_ALLOWED_HOSTS = "127.0.0.1,localhost";

const DAY = 86_400_000;
let dir = "";
let gateway: ServedGateway | undefined;

beforeAll(async () => {
  dir = useTempDataDir();
  gateway = await serveGateway();
});
afterAll(async () => await closeGatewayTest({ gateway, dir }));

/** Register a public client through `/oauth/reg`; its id. */
async function register(): Promise<string> {
  const response = await fetch(`${gateway!.base}/oauth/reg`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: "Expiry test",
      redirect_uris: ["http://127.0.0.1:9/callback"],
      token_endpoint_auth_method: "none",
    }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { client_id: string }).client_id;
}

/** When the client's row expires (ms since the epoch), or null when it does not. */
async function clientExpiry(clientId: string): Promise<number | null> {
  const row = await getOAuthServerRecord(getDb(), recordKey("Client", clientId));
  expect(row).not.toBeNull();
  return row!.expiresAt?.getTime() ?? null;
}

/** The expiry round as it would run at `now`: what it deleted of the authorization server's rows. */
async function expireAt(now: number): Promise<number> {
  const at = new Date(now);
  return (await deleteExpiredRows(getDb(), { sessionsBefore: at, resetsBefore: at, leasesBefore: at, oauthServerBefore: at }))
    .oauthServerRecords;
}

describe("registered clients", () => {
  it("expire 30 days after registration when nobody consents to them", async () => {
    const before = Date.now();
    const clientId = await register();
    const expiry = await clientExpiry(clientId);
    expect(expiry).toBeGreaterThanOrEqual(before + UNUSED_CLIENT_MS);
    expect(expiry).toBeLessThanOrEqual(Date.now() + UNUSED_CLIENT_MS);
    expect(UNUSED_CLIENT_MS).toBe(30 * DAY);
  });

  it("are kept while a grant lasts and 30 days after, then deleted by the expiry of old rows", async () => {
    const unused = await register();
    const used = await register();
    // A user's consent to `used`, as oidc-provider stores it: a grant of 90 days.
    const Grant = adapterOver(getDb());
    const user = (await person("grace@example.com")).id;
    await new Grant("Grant").upsert("grant-1", { accountId: user, clientId: used, kind: "Grant" }, 90 * 86_400);
    const usedExpiry = (await clientExpiry(used))!;
    expect(usedExpiry).toBeGreaterThanOrEqual(Date.now() + 119 * DAY);
    // A shorter grant later never shortens it.
    await new Grant("Grant").upsert("grant-2", { accountId: user, clientId: used, kind: "Grant" }, 60);
    expect(await clientExpiry(used)).toBe(usedExpiry);

    // 31 days on: the unused client (and the short grant) are gone, the used client and its grant stay.
    const deleted = await expireAt(Date.now() + 31 * DAY);
    expect(deleted).toBeGreaterThanOrEqual(2);
    expect(await getOAuthServerRecord(getDb(), recordKey("Client", unused))).toBeNull();
    expect(await getOAuthServerRecord(getDb(), recordKey("Client", used))).not.toBeNull();
    expect(await getOAuthServerRecord(getDb(), recordKey("Grant", "grant-1"))).not.toBeNull();
    // 121 days on: the grant ended 31 days ago; the client goes too.
    await expireAt(Date.now() + 121 * DAY);
    expect(await getOAuthServerRecord(getDb(), recordKey("Client", used))).toBeNull();
  });
});
