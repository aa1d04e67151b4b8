/**
 * A single sign-on started for the consent page comes back to it, second factor or not
 * (docs/sso.md): the page travels in next-auth's callback-url cookie, and only a path the sign-in
 * page may return to (lib/auth/return-path.ts) is kept.
 */
import { describe, expect, it, vi } from "vitest";
import { secondFactorUrl } from "@/lib/auth/sso/next-auth-sso";
import { ssoReturnPath } from "@/lib/auth/sso/sso-handler";

vi.mock("server-only", () => ({}));

describe("the page a single sign-on returns to", () => {
  it("is read from next-auth's callback-url cookie, over http and https, as a path", () => {
    const page = "/oauth/interaction/abc_DEF-123";
    expect(ssoReturnPath(`a=1; next-auth.callback-url=${encodeURIComponent(`http://localhost:3000${page}`)}; b=2`)).toBe(page);
    expect(ssoReturnPath(`__Secure-next-auth.callback-url=${encodeURIComponent(`https://sb.example.com${page}`)}`)).toBe(page);
    expect(ssoReturnPath(`next-auth.callback-url=${encodeURIComponent(page)}`)).toBe(page);
  });

  it("is nothing for a page the sign-in page may not return to, or no cookie", () => {
    for (const cookie of [
      `next-auth.callback-url=${encodeURIComponent("http://localhost:3000/chat")}`,
      `next-auth.callback-url=${encodeURIComponent("https://evil.example/oauth/interaction/x/../../admin")}`,
      "next-auth.callback-url=%E0%A4%A",
      "other=1",
      null,
    ]) {
      expect(ssoReturnPath(cookie), String(cookie)).toBeUndefined();
    }
  });

  it("goes with the second factor's code form", () => {
    expect(secondFactorUrl(undefined)).toBe("/signin?step=code");
    expect(secondFactorUrl("/oauth/interaction/abc")).toBe("/signin?step=code&next=%2Foauth%2Finteraction%2Fabc");
  });
});
