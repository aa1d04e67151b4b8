/**
 * Every OAuth refusal is a clear error (docs/security.md#oauth, docs/errors.md): a hostile
 * authorization server (tests/fixtures/oauth/hostile-as.mjs) that names another issuer, publishes
 * `javascript:`/`data:` endpoints, malformed, mis-shaped or oversized metadata, endpoints on two
 * origins, an unusable client_id or an unacceptable token answer makes Connect fail with its code and
 * one sentence, never a 500 and never a multi-line dump; nothing it sent is stored. The web app's own
 * OAuth wiring (appOAuthDeps: guard, https rule, timeout, byte cap) over a real SQLite file.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { errorResponse } from "@/lib/http";
import { appOAuthDeps } from "@/lib/runtime/oauth-deps";
import { beginAuthorization, completeAuthorization } from "@/lib/oauth/web/flow";
import { startHostileAs } from "../../fixtures/oauth/hostile-as.mjs";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { addOAuthServer, signUp, type TestUser } from "./helpers";

// The app's wiring module is marked server-only (a bundler marker that throws outside Next's server build).
vi.mock("server-only", () => ({}));

const ENV = { SWITCHBOARD_ALLOWED_HOSTS: "127.0.0.1,localhost", SWITCHBOARD_ALLOW_HTTP_LOOPBACK_OAUTH: "1" };
const saved = Object.fromEntries(Object.keys(ENV).map((key) => [key, process.env[key]]));
const ORIGIN = "http://localhost:3111";
let dir: string;
let alice: TestUser;
let as: Awaited<ReturnType<typeof startHostileAs>>;

beforeAll(async () => {
  Object.assign(process.env, ENV);
  dir = useTempDataDir();
  alice = await signUp("alice@example.com");
  as = await startHostileAs();
});
afterAll(async () => {
  await as?.close();
  removeTempDataDir(dir);
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

/** The response the route would give for what `run` threw (it must throw). */
async function refusal(run: () => Promise<unknown>): Promise<{ status: number; code: string; message: string }> {
  let thrown: unknown = new Error("did not throw");
  try {
    await run();
  } catch (error) {
    thrown = error;
  }
  const response = errorResponse(thrown);
  const body = await response.json();
  return { status: response.status, code: body.code, message: body.message };
}

let serial = 0;
const serverFor = async (variant: string) => await addOAuthServer(alice, `${variant}-${serial++}`, as.mcpUrl(variant));
const stored = (serverId: string, kind: "client" | "tokens") => appOAuthDeps(ORIGIN).store.get({ userId: alice.id, serverId }, kind);

describe("Connect against a hostile authorization server", () => {
  it("behaves with the well-behaved variant (the fixture itself is sound)", async () => {
    const begun = await beginAuthorization(appOAuthDeps(ORIGIN), alice.id, await serverFor("ok"));
    expect(begun.status).toBe("redirect");
  });

  it.each([
    ["issuer-mismatch", 400, "oauth.issuer_mismatch", "another authorization server"],
    ["javascript-endpoint", 502, "oauth.invalid_metadata", "`authorization_endpoint`: URL cannot use javascript:"],
    ["data-endpoint", 502, "oauth.invalid_metadata", "`token_endpoint`: URL cannot use javascript:, data:"],
    ["wrong-shape", 502, "oauth.invalid_metadata", "`authorization_endpoint`"],
    ["not-json", 502, "oauth.invalid_metadata", "not JSON"],
    ["split-origins", 502, "oauth.endpoint_origin_mismatch", "different origins"],
    ["huge", 502, "net.response_too_large", "more than 262144 bytes"],
    ["crlf-client", 502, "oauth.invalid_registration", "client_id"],
    ["script-client", 502, "oauth.invalid_registration", "client_id"],
    ["long-client", 502, "oauth.invalid_registration", "client_id"],
  ])("%s → %i %s, one sentence", async (variant, status, code, says) => {
    const server = await serverFor(variant);
    const answer = await refusal(() => beginAuthorization(appOAuthDeps(ORIGIN), alice.id, server));
    expect(answer).toMatchObject({ status, code });
    expect(answer.message).toContain(says);
    expect(answer.message).not.toMatch(/[\r\n]/);
    expect(answer.message).not.toContain("<script>");
    // A refused registration is not kept for later use.
    expect(await stored(server.id, "client")).toBeUndefined();
  });
});

describe("the token answer", () => {
  /** Connect, then come back to the callback with any code: the fixture's token endpoint answers per variant. */
  async function exchange(variant: string) {
    const server = await serverFor(variant);
    const deps = appOAuthDeps(ORIGIN);
    const begun = await beginAuthorization(deps, alice.id, server);
    if (begun.status !== "redirect") throw new Error("expected a redirect");
    const state = new URL(begun.url).searchParams.get("state") ?? "";
    const run = () =>
      completeAuthorization(deps, { userId: alice.id, query: new URLSearchParams({ state, code: "any" }), findServer: () => server });
    return { server, run };
  }

  it.each([
    ["token-mac", 502, "oauth.invalid_token_response", "token_type is not bearer"],
    ["token-wide-scope", 502, "oauth.invalid_token_response", "wider than asked for: admin:everything"],
    ["token-huge", 502, "net.response_too_large", "more than 262144 bytes"],
  ])("%s is refused (%i %s) and nothing is stored", async (variant, status, code, says) => {
    const { server, run } = await exchange(variant);
    const answer = await refusal(run);
    expect(answer).toMatchObject({ status, code });
    expect(answer.message).toContain(says);
    expect(await stored(server.id, "tokens")).toBeUndefined();
  });

  it.each([
    ["ok", 3600],
    ["token-forever", 365 * 24 * 3600],
    ["token-negative", 10],
  ])("%s: a bearer token is kept with its lifetime clamped to %i s", async (variant, expiresIn) => {
    const { server, run } = await exchange(variant);
    await run();
    const record = JSON.parse((await stored(server.id, "tokens")) ?? "{}");
    expect(record.tokens).toMatchObject({ access_token: `token-${variant}`, expires_in: expiresIn });
  });
});
