/**
 * Groups from the userinfo endpoint (docs/sso.md#claims-to-roles), against a real identity provider
 * (oidc-provider, tests/fixtures/oidc/idp.mjs) that leaves `groups` out of the ID token: the code
 * flow with PKCE runs over HTTP through the provider's login and consent pages, openid-client (the
 * client next-auth itself drives) redeems the code, and the provider's userinfo handler — the one
 * next-auth calls — adds the groups, so the person lands in the mapped workspace. The browser path
 * through next-auth is tests/e2e/sso.spec.ts.
 */
import { generators, Issuer, type TokenSet } from "openid-client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { getMembershipRole } from "@/db/queries/workspaces";
import { NO_EFFECTS } from "@/lib/domain/access-effects";
import { oidcProvider } from "@/lib/auth/sso/next-auth-sso";
import { createSsoProvider, findSsoProvider } from "@/lib/auth/sso/providers";
import { resolveSsoSignIn } from "@/lib/auth/sso/sso-sign-in";
import { signInAtIdp, startOidcIdp } from "../../fixtures/oidc/idp.mjs";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { person, team } from "../workspaces/helpers";

vi.mock("server-only", () => ({}));

const CLIENT = { clientId: "switchboard-userinfo", clientSecret: "fixture-client-secret" };
const REDIRECT = "http://localhost:3000/api/auth/callback/acme";
type Idp = Awaited<ReturnType<typeof startOidcIdp>>;
type Handler = { request(context: Record<string, unknown>): Promise<Record<string, unknown>> };
let dir: string;
let idp: Idp;
let engineering: string;

/** One sign-in of `login` at the provider, as next-auth runs it: its client, tokens and profile claims. */
async function signInThroughIdp(login: string) {
  const config = await oidcProvider((await findSsoProvider(getDb(), "acme"))!);
  const issuer = new Issuer({
    issuer: config.issuer as string,
    authorization_endpoint: (config.authorization as { url: string }).url,
    token_endpoint: (config.token as { url: string }).url,
    userinfo_endpoint: (config.userinfo as { url: string }).url,
    jwks_uri: config.jwks_endpoint,
  });
  const client = new issuer.Client({ client_id: CLIENT.clientId, client_secret: CLIENT.clientSecret, redirect_uris: [REDIRECT] });
  const checks = { code_verifier: generators.codeVerifier(), state: generators.state(), nonce: generators.nonce() };
  const url = client.authorizationUrl({
    scope: (config.authorization as { params: { scope: string } }).params.scope,
    code_challenge: generators.codeChallenge(checks.code_verifier),
    code_challenge_method: "S256",
    state: checks.state,
    nonce: checks.nonce,
  });
  const back = await signInAtIdp(url, login, REDIRECT);
  const tokens: TokenSet = await client.callback(REDIRECT, client.callbackParams(back), checks);
  const claims = await (config.userinfo as unknown as Handler).request({ tokens, client, provider: config });
  return { tokens, claims };
}

beforeAll(async () => {
  dir = useTempDataDir();
  // The provider runs on loopback http: allowed for this instance, as in the browser tests.
  vi.stubEnv("SWITCHBOARD_ALLOWED_HOSTS", "127.0.0.1");
  vi.stubEnv("SWITCHBOARD_ALLOW_HTTP_LOOPBACK_OAUTH", "1");
  idp = await startOidcIdp({ port: 0, ...CLIENT, redirectUris: [REDIRECT] });
  idp.userinfoOnlyClaims.add("groups");
  const admin = await person("admin@acme.test");
  engineering = await team(admin, "Engineering");
  await createSsoProvider(getDb(), admin.id, {
    name: "acme",
    issuer: idp.issuer,
    ...CLIENT,
    scopes: "openid email profile groups",
    allowedDomains: ["acme.test"],
    claimMapping: { claim: "groups", adminGroups: [], workspaces: [{ group: "eng", workspaceId: engineering, role: "admin" }] },
  });
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await idp?.close();
  removeTempDataDir(dir);
});

describe("groups only in userinfo", () => {
  it("are read from the userinfo endpoint when the ID token lacks them, and the mapping applies", async () => {
    idp.accounts.set("ada", { email: "ada@acme.test", email_verified: true, name: "Ada", groups: ["eng"] });
    const { tokens, claims } = await signInThroughIdp("ada");
    expect(tokens.claims().groups).toBeUndefined();
    expect(claims).toMatchObject({ sub: "ada", email: "ada@acme.test", groups: ["eng"] });
    const outcome = await resolveSsoSignIn(getDb(), (await findSsoProvider(getDb(), "acme"))!, claims, NO_EFFECTS);
    expect(outcome).toMatchObject({ ok: true, created: true });
    expect(await getMembershipRole(getDb(), engineering, outcome.ok ? outcome.user.id : "")).toBe("admin");
  });

  it("are taken from the ID token when it has them, and identity claims always stay the ID token's", async () => {
    idp.userinfoOnlyClaims.clear();
    idp.accounts.set("bo", { email: "bo@acme.test", email_verified: true, name: "Bo", groups: ["eng", "ops"] });
    const { tokens, claims } = await signInThroughIdp("bo");
    expect(tokens.claims().groups).toEqual(["eng", "ops"]);
    expect(claims).toEqual(tokens.claims());
    // Without groups anywhere, the claims are the ID token's as they were.
    idp.userinfoOnlyClaims.add("groups");
    idp.accounts.set("cy", { email: "cy@acme.test", email_verified: true, name: "Cy" });
    const none = await signInThroughIdp("cy");
    expect(none.claims).toEqual(none.tokens.claims());
  });
});
