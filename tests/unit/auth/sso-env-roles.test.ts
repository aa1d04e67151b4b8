/**
 * Claims to roles from the environment (lib/auth/sso/env-roles.ts): the `_ROLES` syntax, and each
 * malformed value refused with the variable named (scripts/preflight.ts parses them at start-up).
 */
import { describe, expect, it } from "vitest";
import { ssoProvidersFromEnv } from "@/lib/auth/sso/env-providers";
import { parseEnvClaimMapping } from "@/lib/auth/sso/env-roles";

describe("SWITCHBOARD_OIDC_<NAME>_ROLES", () => {
  it("maps groups to instance administrator and to workspaces (slug or id) with a role; a group may hold '='", () => {
    expect(
      parseEnvClaimMapping(
        "ACME",
        "groups",
        " sb-admins=instance-admin; eng = engineering:member ;eng-leads=engineering:admin;cn=ops,ou=groups=ws_123:owner; ",
      ),
    ).toEqual({
      claim: "groups",
      adminGroups: ["sb-admins"],
      workspaces: [
        { group: "eng", workspaceId: "engineering", role: "member" },
        { group: "eng-leads", workspaceId: "engineering", role: "admin" },
        { group: "cn=ops,ou=groups", workspaceId: "ws_123", role: "owner" },
      ],
    });
  });

  it("is no mapping when neither variable is set", () => {
    expect(parseEnvClaimMapping("ACME", "", "")).toBeNull();
  });

  it.each([
    ["", "eng=engineering:member", /SWITCHBOARD_OIDC_ACME_ROLES: set SWITCHBOARD_OIDC_ACME_ROLES_CLAIM too/],
    ["groups", "", /SWITCHBOARD_OIDC_ACME_ROLES_CLAIM: set SWITCHBOARD_OIDC_ACME_ROLES too/],
    ["groups", "eng", /SWITCHBOARD_OIDC_ACME_ROLES: "eng" has no group or no grant/],
    ["groups", "=engineering:member", /"=engineering:member" has no group or no grant/],
    ["groups", "eng=engineering", /"eng=engineering" has no :<role>/],
    ["groups", "eng=:admin", /"eng=:admin" names no workspace/],
    ["groups", "eng=engineering:boss", /"eng=engineering:boss" has the role "boss"/],
    ["groups", " ; ", /SWITCHBOARD_OIDC_ACME_ROLES: no entry/],
    ["g".repeat(101), "eng=instance-admin", /ROLES_CLAIM: a claim name of at most 100/],
  ])("refuses claim %j with roles %j, naming the variable", (claim, roles, message) => {
    expect(() => parseEnvClaimMapping("ACME", claim, roles)).toThrow(message);
  });

  it("comes with the provider's other variables, and _SCOPES sets its scopes (openid first)", () => {
    const [provider] = ssoProvidersFromEnv({
      SWITCHBOARD_OIDC_ACME_ISSUER: "https://idp.acme.test",
      SWITCHBOARD_OIDC_ACME_CLIENT_ID: "id",
      SWITCHBOARD_OIDC_ACME_CLIENT_SECRET: "secret",
      SWITCHBOARD_OIDC_ACME_SCOPES: "email groups profile",
      SWITCHBOARD_OIDC_ACME_ROLES_CLAIM: "groups",
      SWITCHBOARD_OIDC_ACME_ROLES: "admins=instance-admin",
    });
    expect(provider).toMatchObject({
      scopes: "openid email groups profile",
      claimMapping: { claim: "groups", adminGroups: ["admins"], workspaces: [] },
    });
    expect(() =>
      ssoProvidersFromEnv({
        SWITCHBOARD_OIDC_ACME_ISSUER: "https://idp.acme.test",
        SWITCHBOARD_OIDC_ACME_CLIENT_ID: "id",
        SWITCHBOARD_OIDC_ACME_CLIENT_SECRET: "secret",
        SWITCHBOARD_OIDC_ACME_ROLES: "admins=instance-admin",
      }),
    ).toThrow(/SWITCHBOARD_OIDC_ACME_ROLES: set SWITCHBOARD_OIDC_ACME_ROLES_CLAIM too/);
  });
});
