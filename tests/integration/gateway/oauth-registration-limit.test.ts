/**
 * The limit on dynamic client registration (lib/oauth-server/registration-limit.ts), over HTTP
 * through the authorization server's mount (helpers.ts): a client address registers
 * REGISTRATIONS_FREE clients an hour, then gets `429` with `Retry-After` and an OAuth error body,
 * and the refused registration stores nothing.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { all } from "@/db/exec";
import { oauthServerRecords } from "@/db/schema";
import { REGISTRATIONS_FREE } from "@/lib/oauth-server/registration-limit";
import { useTempDataDir } from "../../helpers/temp-data-dir";
import { closeGatewayTest, type ServedGateway, serveGateway } from "./helpers";

vi.mock("server-only", () => ({}));

process.env.SWITCHBOARD_ALLOWED_HOSTS = "127.0.0.1,localhost";

let dir = "";
let gateway: ServedGateway | undefined;

const register = (name: string) =>
  fetch(`${gateway!.base}/oauth/reg`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_name: name, redirect_uris: ["http://127.0.0.1:9/callback"], token_endpoint_auth_method: "none" }),
  });

const clientRows = async () => (await all(getDb().select().from(oauthServerRecords))).filter((row) => row.model === "Client").length;

beforeAll(async () => {
  dir = useTempDataDir();
  gateway = await serveGateway();
});

afterAll(async () => await closeGatewayTest({ gateway, dir }));

describe("dynamic client registration", () => {
  it(`lets one address register ${REGISTRATIONS_FREE} clients an hour, then answers 429 with Retry-After and stores nothing`, async () => {
    for (let i = 0; i < REGISTRATIONS_FREE; i++) expect((await register(`client ${i}`)).status).toBe(201);
    expect(await clientRows()).toBe(REGISTRATIONS_FREE);
    const refused = await register("one too many");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ error: "temporarily_unavailable" });
    expect(await clientRows()).toBe(REGISTRATIONS_FREE);
  });
});
