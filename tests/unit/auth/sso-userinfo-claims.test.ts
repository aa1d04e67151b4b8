/**
 * The mapped claim from userinfo (lib/auth/sso/userinfo-claims.ts): asked only when the ID token lacks
 * it, never replacing who the person is, and a failing request fails the sign-in.
 */
import { describe, expect, it } from "vitest";
import { withUserinfoClaim } from "@/lib/auth/sso/userinfo-claims";

const idToken = { sub: "ada", email: "ada@acme.test", email_verified: true };

describe("withUserinfoClaim", () => {
  it("adds only the mapped claim from userinfo when the ID token lacks it", async () => {
    const claims = await withUserinfoClaim(idToken, "groups", async () => ({
      sub: "ada",
      email: "someone-else@acme.test",
      email_verified: true,
      groups: ["eng"],
    }));
    expect(claims).toEqual({ ...idToken, groups: ["eng"] });
  });

  it("asks nothing when the ID token has the claim or no claim is mapped", async () => {
    const never = async (): Promise<Record<string, unknown>> => {
      throw new Error("userinfo asked");
    };
    const withGroups = { ...idToken, groups: [] };
    expect(await withUserinfoClaim(withGroups, "groups", never)).toBe(withGroups);
    expect(await withUserinfoClaim(idToken, null, never)).toBe(idToken);
  });

  it("fails when userinfo fails, rather than read no groups (and take workspaces away)", async () => {
    await expect(
      withUserinfoClaim(idToken, "groups", async () => {
        throw new Error("userinfo sub mismatch");
      }),
    ).rejects.toThrow("userinfo sub mismatch");
  });
});
