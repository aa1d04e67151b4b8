/**
 * Single sign-on over a real SQLite file (docs/sso.md): the environment's provider variables, who an
 * ID token's claims sign in as (linked subject, verified email to an existing account, just-in-time
 * account for an allowed domain, refusals), claims to roles at each sign-in and on "sync now", the
 * client secret sealed at rest, and SSO-only mode refusing password sign-in through the real
 * `/api/auth` handler. The browser flow against a real identity provider is tests/e2e/sso.spec.ts.
 */
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { listRecentAudit } from "@/db/queries/audit";
import { ssoProviders } from "@/db/schema";
import { getMembershipRole, getWorkspaceById } from "@/db/queries/workspaces";
import { getUserById } from "@/db/queries/users";
import { NO_EFFECTS } from "@/lib/domain/access-effects";
import { mappedAccess } from "@/lib/auth/sso/claim-roles";
import { ssoProvidersFromEnv } from "@/lib/auth/sso/env-providers";
import { createSsoProvider, findSsoProvider, ssoProviderViews } from "@/lib/auth/sso/providers";
import { passwordAllowed, setSsoOnly } from "@/lib/auth/sso/sso-only";
import { resolveSsoSignIn } from "@/lib/auth/sso/sso-sign-in";
import { syncUserFromSso } from "@/lib/auth/sso/sync";
import { handleSignIn } from "@/lib/use-cases/account";
import { registerUser } from "@/lib/auth/register";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { person, type Person, team } from "../workspaces/helpers";
import { all, exec } from "../../../db/exec";

// The use cases are marked server-only (a bundler marker that throws outside Next's server build).
vi.mock("server-only", () => ({}));

const PASSWORD = "a long enough password";
const SECRET = "client-secret-that-must-not-leak";
let dir: string;
let admin: Person;
let existing: Person;
let engineering: string;
let support: string;

/** The validated ID token claims a provider would send. */
const claims = (sub: string, email: string, extra: Record<string, unknown> = {}) => ({
  sub,
  email,
  email_verified: true,
  name: sub,
  ...extra,
});
const signIn = async (c: Record<string, unknown>) => resolveSsoSignIn(getDb(), (await findSsoProvider(getDb(), "acme"))!, c, NO_EFFECTS);

beforeAll(async () => {
  dir = useTempDataDir();
  admin = await person("admin@acme.test");
  existing = await person("existing@acme.test");
  engineering = await team(admin, "Engineering");
  support = await team(admin, "Support");
  await createSsoProvider(getDb(), admin.id, {
    name: "Acme",
    label: "Acme SSO",
    issuer: "https://idp.acme.test",
    clientId: "switchboard",
    clientSecret: SECRET,
    allowedDomains: ["@Acme.test"],
    claimMapping: {
      claim: "groups",
      adminGroups: ["sb-admins"],
      workspaces: [
        { group: "eng", workspaceId: engineering, role: "member" },
        { group: "eng-leads", workspaceId: engineering, role: "admin" },
        { group: "support", workspaceId: support, role: "member" },
      ],
    },
  });
});
afterAll(() => removeTempDataDir(dir));

describe("providers from the environment", () => {
  it("reads each SWITCHBOARD_OIDC_<NAME>_* family: id is the lower-cased name, label defaults to the name, domains split on commas", () => {
    const providers = ssoProvidersFromEnv({
      SWITCHBOARD_OIDC_OKTA_ISSUER: "https://acme.okta.com",
      SWITCHBOARD_OIDC_OKTA_CLIENT_ID: "id1",
      SWITCHBOARD_OIDC_OKTA_CLIENT_SECRET: "s1",
      SWITCHBOARD_OIDC_OKTA_ALLOWED_DOMAINS: " Acme.com, @acme.io ,",
      SWITCHBOARD_OIDC_KEYCLOAK_ISSUER: "https://kc.example/realms/x",
      SWITCHBOARD_OIDC_KEYCLOAK_CLIENT_ID: "id2",
      SWITCHBOARD_OIDC_KEYCLOAK_CLIENT_SECRET: "s2",
      SWITCHBOARD_OIDC_KEYCLOAK_LABEL: "Company login",
      SWITCHBOARD_OTHER: "x",
    });
    expect(providers.map((p) => [p.id, p.label, p.allowedDomains, p.source])).toEqual([
      ["keycloak", "Company login", [], "env"],
      ["okta", "OKTA", ["acme.com", "acme.io"], "env"],
    ]);
    expect(providers[1]).toMatchObject({
      issuer: "https://acme.okta.com",
      clientId: "id1",
      clientSecret: "s1",
      scopes: "openid email profile",
    });
  });

  it("refuses a provider without its client id or secret, and a name that cannot be an id", () => {
    expect(() => ssoProvidersFromEnv({ SWITCHBOARD_OIDC_X_ISSUER: "https://x", SWITCHBOARD_OIDC_X_CLIENT_ID: "id" })).toThrow(
      /_CLIENT_SECRET/,
    );
    expect(() =>
      ssoProvidersFromEnv({
        SWITCHBOARD_OIDC_CREDENTIALS_ISSUER: "https://x",
        SWITCHBOARD_OIDC_CREDENTIALS_CLIENT_ID: "a",
        SWITCHBOARD_OIDC_CREDENTIALS_CLIENT_SECRET: "b",
      }),
    ).toThrow(/cannot name a provider/);
  });
});

describe("claims to roles for a provider of the environment", () => {
  afterAll(() => vi.unstubAllEnvs());

  it("maps _ROLES_CLAIM through _ROLES at each sign-in: administrator, and workspaces named by slug or id", async () => {
    const engineeringSlug = (await getWorkspaceById(getDb(), engineering))?.slug as string;
    vi.stubEnv("SWITCHBOARD_OIDC_CORP_ISSUER", "https://login.corp.test");
    vi.stubEnv("SWITCHBOARD_OIDC_CORP_CLIENT_ID", "switchboard");
    vi.stubEnv("SWITCHBOARD_OIDC_CORP_CLIENT_SECRET", "env-secret");
    vi.stubEnv("SWITCHBOARD_OIDC_CORP_ALLOWED_DOMAINS", "corp.test");
    vi.stubEnv("SWITCHBOARD_OIDC_CORP_ROLES_CLAIM", "roles");
    vi.stubEnv(
      "SWITCHBOARD_OIDC_CORP_ROLES",
      `corp-admins=instance-admin; eng=${engineeringSlug}:member; eng-leads=${engineering}:admin; sup=${(await getWorkspaceById(getDb(), support))?.slug}:member; ghost=no-such-workspace:owner`,
    );
    const corp = (await findSsoProvider(getDb(), "corp"))!;
    // Each workspace is its id now; one that does not exist maps nobody.
    expect(corp.claimMapping).toEqual({
      claim: "roles",
      adminGroups: ["corp-admins"],
      workspaces: [
        { group: "eng", workspaceId: engineering, role: "member" },
        { group: "eng-leads", workspaceId: engineering, role: "admin" },
        { group: "sup", workspaceId: support, role: "member" },
      ],
    });
    const corpSignIn = async (roles: string[]) =>
      resolveSsoSignIn(getDb(), (await findSsoProvider(getDb(), "corp"))!, claims("corp-1", "kim@corp.test", { roles }), NO_EFFECTS);
    const first = await corpSignIn(["eng", "eng-leads", "corp-admins"]);
    expect(first).toMatchObject({ ok: true, created: true, user: { isAdmin: true } });
    const id = first.ok ? first.user.id : "";
    expect(await getMembershipRole(getDb(), engineering, id)).toBe("admin");
    expect(await getMembershipRole(getDb(), support, id)).toBeNull();
    // Next sign-in with other groups: the mapping is applied again.
    const second = await corpSignIn(["sup"]);
    expect(second).toMatchObject({ ok: true, created: false, user: { id, isAdmin: false } });
    expect(await getMembershipRole(getDb(), engineering, id)).toBeNull();
    expect(await getMembershipRole(getDb(), support, id)).toBe("member");
    expect((await listRecentAudit(getDb())).some((e) => e.action === "user.sso_sync" && e.target === id)).toBe(true);
    // The admin area shows the mapping, never the environment's secret.
    const view = (await ssoProviderViews(getDb())).find((p) => p.id === "corp");
    expect(view).toMatchObject({ source: "env", claimMapping: { claim: "roles" }, hasClientSecret: true });
    expect(JSON.stringify(view)).not.toContain("env-secret");
  });
});

describe("an admin-configured provider", () => {
  it("keeps the client secret sealed at rest and never answers it", async () => {
    const raw = JSON.stringify(await all(getDb().select().from(ssoProviders)));
    expect(raw).not.toContain(SECRET);
    const view = (await ssoProviderViews(getDb())).find((p) => p.id === "acme");
    expect(view).toMatchObject({ label: "Acme SSO", hasClientSecret: true, allowedDomains: ["acme.test"], scopes: "openid email profile" });
    expect(JSON.stringify(view)).not.toContain(SECRET);
    expect((await findSsoProvider(getDb(), "acme"))?.clientSecret).toBe(SECRET);
  });
});

describe("who signs in", () => {
  it("creates an account just in time for an allowed domain, in the mapped workspace with the mapped role", async () => {
    const outcome = await signIn(claims("sub-new", "new@acme.test", { groups: ["eng-leads", "eng"] }));
    expect(outcome).toMatchObject({ ok: true, created: true, user: { email: "new@acme.test", isAdmin: false } });
    const id = outcome.ok ? outcome.user.id : "";
    expect(await getMembershipRole(getDb(), engineering, id)).toBe("admin");
    expect(await getMembershipRole(getDb(), support, id)).toBeNull();
    // The same subject signs in again as the same user.
    const again = await signIn(claims("sub-new", "renamed@acme.test", { groups: ["eng-leads", "eng"] }));
    expect(again).toMatchObject({ ok: true, created: false, user: { id } });
  });

  it("refuses a person of another domain, and creates nothing", async () => {
    expect(await signIn(claims("sub-outsider", "eve@elsewhere.test"))).toEqual({ ok: false, reason: "domain_not_allowed" });
    expect(await signIn(claims("sub-noemail", ""))).toEqual({ ok: false, reason: "no_email" });
  });

  it("links to an existing account only when the provider says the email is verified", async () => {
    expect(await signIn(claims("sub-existing", existing.email, { email_verified: false }))).toEqual({
      ok: false,
      reason: "unverified_email",
    });
    expect(await signIn(claims("sub-existing", existing.email, { email_verified: undefined }))).toEqual({
      ok: false,
      reason: "unverified_email",
    });
    // Refused above, so no link was made: still refused without the claim, and no account changed hands.
    const linked = await signIn(claims("sub-existing", existing.email));
    expect(linked).toMatchObject({ ok: true, created: false, user: { id: existing.id } });
  });
});

describe("claims to roles", () => {
  it("maps groups to the highest role per workspace and to instance administrator (pure)", async () => {
    const mapping = (await findSsoProvider(getDb(), "acme"))!.claimMapping!;
    const access = mappedAccess(mapping, ["eng", "eng-leads", "sb-admins"]);
    expect(access.isAdmin).toBe(true);
    expect([...access.workspaces]).toEqual([
      [engineering, "admin"],
      [support, null],
    ]);
  });

  it("re-evaluates at each sign-in: a removed group loses the workspace, an admin group grants administrator; audited", async () => {
    const first = await signIn(claims("sub-mover", "mover@acme.test", { groups: ["support", "sb-admins"] }));
    const id = first.ok ? first.user.id : "";
    expect(await getMembershipRole(getDb(), support, id)).toBe("member");
    expect((await getUserById(getDb(), id))?.isAdmin).toBe(true);
    await signIn(claims("sub-mover", "mover@acme.test", { groups: ["eng"] }));
    expect(await getMembershipRole(getDb(), support, id)).toBeNull();
    expect(await getMembershipRole(getDb(), engineering, id)).toBe("member");
    expect((await getUserById(getDb(), id))?.isAdmin).toBe(false);
    const actions = (await listRecentAudit(getDb())).filter((e) => e.target === id).map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(["member.add", "member.leave", "user.make_admin", "user.remove_admin", "user.sso_sync"]),
    );
  });

  it("sync now re-applies the stored groups under an edited mapping, as the administrator", async () => {
    const first = await signIn(claims("sub-synced", "synced@acme.test", { groups: ["support"] }));
    const id = first.ok ? first.user.id : "";
    expect(await getMembershipRole(getDb(), support, id)).toBe("member");
    // The administrator moves the support group to Engineering as admin.
    await exec(
      getDb()
        .update(ssoProviders)
        .set({
          claimMapping: {
            claim: "groups",
            adminGroups: [],
            workspaces: [
              { group: "support", workspaceId: engineering, role: "admin" },
              { group: "nobody", workspaceId: support, role: "member" },
            ],
          },
        }),
    );
    const { changes } = await syncUserFromSso(getDb(), admin.id, id, NO_EFFECTS);
    expect(changes).toHaveLength(2);
    expect(await getMembershipRole(getDb(), engineering, id)).toBe("admin");
    expect(await getMembershipRole(getDb(), support, id)).toBeNull();
    expect((await listRecentAudit(getDb())).some((e) => e.action === "member.remove" && e.target === id && e.actorId === admin.id)).toBe(
      true,
    );
  });
});

describe("SSO-only mode", () => {
  const context = { params: Promise.resolve({ nextauth: ["callback", "credentials"] }) };
  const passwordSignIn = (email: string) =>
    handleSignIn(
      new NextRequest("http://localhost:3000/api/auth/callback/credentials", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ email, password: PASSWORD, csrfToken: "x", json: "true" }),
      }),
      context,
    );

  it("needs a break-glass administrator, then refuses password sign-in and sign-up to everyone else with auth.sso_only", async () => {
    await expect(setSsoOnly(getDb(), admin.id, { ssoOnly: true, breakGlassEmail: null })).rejects.toThrow(/break-glass/);
    await expect(setSsoOnly(getDb(), admin.id, { ssoOnly: true, breakGlassEmail: existing.email })).rejects.toThrow(/administrator/);
    await setSsoOnly(getDb(), admin.id, { ssoOnly: true, breakGlassEmail: admin.email });
    const refused = await passwordSignIn(existing.email);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: "auth.sso_only" });
    // The break-glass administrator's password goes on to next-auth (signed in through it in tests/e2e/sso.spec.ts).
    expect(await passwordAllowed(getDb(), admin.email)).toBe(true);
    await expect(registerUser(getDb(), { email: "walkin@acme.test", password: PASSWORD, name: "Walk" })).rejects.toMatchObject({
      code: "auth.sso_only",
    });
    await setSsoOnly(getDb(), admin.id, { ssoOnly: false, breakGlassEmail: admin.email });
    expect(await passwordAllowed(getDb(), existing.email)).toBe(true);
  });
});
