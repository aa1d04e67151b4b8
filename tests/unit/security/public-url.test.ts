/** The public-origin rule: configuration first, the request's host only for loopback (or development). */
import { describe, expect, it } from "vitest";
import {
  configuredPublicOrigin,
  describePublicUrl,
  isLoopbackHostname,
  publicOriginFor,
  requestPublicOrigin,
} from "@/lib/security/public-url";

const env = (vars: Record<string, string>) => ({ NODE_ENV: "production", ...vars }) as NodeJS.ProcessEnv;

describe("public origin", () => {
  it.each([
    ["localhost", true],
    ["app.localhost", true],
    ["127.0.0.1", true],
    ["127.8.9.10", true],
    ["[::1]", true],
    ["::1", true],
    ["192.168.1.20", false],
    ["10.0.0.1", false],
    ["example.com", false],
    ["localhost.evil.example", false],
    ["127.0.0.1.evil.example", false],
  ])("%s is loopback: %s", (host, expected) => {
    expect(isLoopbackHostname(host)).toBe(expected);
  });

  it.each([
    [{}, "localhost:3000", "http://localhost:3000"],
    [{}, "127.0.0.1:3211", "http://127.0.0.1:3211"],
    [{}, "[::1]:8080", "http://[::1]:8080"],
    [{ PORT: "4000" }, "192.168.1.20:4000", "http://localhost:4000"],
    [{}, "evil.example", "http://localhost:3000"],
    [{ SWITCHBOARD_PUBLIC_URL: "https://sb.example.com/" }, "127.0.0.1:3000", "https://sb.example.com"],
    [{ NEXTAUTH_URL: "http://10.0.0.5:3000" }, "10.0.0.5:3000", "http://10.0.0.5:3000"],
    [{ SWITCHBOARD_PUBLIC_URL: "https://a.example", NEXTAUTH_URL: "https://b.example" }, "x", "https://a.example"],
    [{ NODE_ENV: "development" }, "192.168.1.20:3000", "http://192.168.1.20:3000"],
  ])("env %j, Host %s → %s", (vars, host, expected) => {
    expect(publicOriginFor({ host }, env(vars))).toBe(expected);
  });

  it("takes https from X-Forwarded-Proto for a loopback host only", () => {
    expect(publicOriginFor({ host: "localhost:3443", forwardedProto: "https" }, env({}))).toBe("https://localhost:3443");
  });

  it("reads the rule's inputs from a request's headers (links made for invitations follow it)", () => {
    const request = new Request("http://ignored/", { headers: { host: "127.0.0.1:3211", "x-forwarded-proto": "http" } });
    expect(requestPublicOrigin(request, env({}))).toBe("http://127.0.0.1:3211");
    expect(requestPublicOrigin(new Request("http://ignored/", { headers: { host: "evil.example" } }), env({}))).toBe(
      "http://localhost:3000",
    );
  });

  it("ignores a configured URL that is not http(s)", () => {
    expect(configuredPublicOrigin(env({ SWITCHBOARD_PUBLIC_URL: "javascript:alert(1)" }))).toBeNull();
  });

  it("describes the public URL for the start-up log", () => {
    expect(describePublicUrl(env({ SWITCHBOARD_PUBLIC_URL: "https://sb.example.com" }))).toContain(
      "https://sb.example.com/api/oauth/callback",
    );
    expect(describePublicUrl(env({}))).toContain("SWITCHBOARD_PUBLIC_URL");
  });
});
