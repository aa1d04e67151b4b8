import { describe, expect, it } from "vitest";
import { maskUrlSecrets, redact, secretValuesOf, URL_MASK, urlSecretParts } from "@/lib/redact";

const M = URL_MASK;

describe("maskUrlSecrets", () => {
  it.each([
    ["https://api.example.com/mcp?api_key=abc123", `https://api.example.com/mcp?api_key=${M}`],
    ["https://api.example.com/mcp?key=abc123&region=eu", `https://api.example.com/mcp?key=${M}&region=eu`],
    ["https://api.example.com/mcp?token=t0k&x=1", `https://api.example.com/mcp?token=${M}&x=1`],
    ["https://api.example.com/mcp?access_token=t0k", `https://api.example.com/mcp?access_token=${M}`],
    ["https://api.example.com/mcp?client_secret=s3c", `https://api.example.com/mcp?client_secret=${M}`],
    ["https://files.example.com/x?sig=AbC%2Bd&se=2030", `https://files.example.com/x?sig=${M}&se=2030`],
    ["https://api.example.com/mcp?X-Api-Key=abc", `https://api.example.com/mcp?X-Api-Key=${M}`],
    ["https://mcp.example.com/s/abcDEF123456/mcp", `https://mcp.example.com/s/${M}/mcp`],
    ["https://mcp.example.com/token/abcdefgh/sse", `https://mcp.example.com/token/${M}/sse`],
    ["https://mcp.example.com/v1/8f14e45fceea167a5a36dedd4bea2543/mcp", `https://mcp.example.com/v1/${M}/mcp`],
    ["https://Mcp.Example.com:8443/mcp#frag", "https://Mcp.Example.com:8443/mcp#frag"],
    ["https://example.com", "https://example.com"],
    ["https://example.com/mcp?region=eu&page=2", "https://example.com/mcp?region=eu&page=2"],
    ["https://example.com/servers/my-long-but-plain-server-name/mcp", "https://example.com/servers/my-long-but-plain-server-name/mcp"],
  ])("%s → %s", (url, masked) => {
    expect(maskUrlSecrets(url)).toBe(masked);
  });

  it("masks all after the origin for a URL marked secret, and leaves non-URLs alone", () => {
    expect(maskUrlSecrets("https://hooks.example.com/T00/B00/XXXX", true)).toBe(`https://hooks.example.com/${M}`);
    expect(maskUrlSecrets("not a url")).toBe("not a url");
  });

  it("lists the secret parts, for exact redaction of texts that quote the URL", () => {
    expect(urlSecretParts("https://a.example/s/abcDEF123456/mcp?api_key=k3y&x=1")).toEqual(["abcDEF123456", "k3y"]);
    expect(urlSecretParts("https://a.example/hook/path?x=1", true)).toEqual(["/hook/path?x=1"]);
    expect(secretValuesOf({ url: "https://a.example/mcp?token=zzzz9999" })).toEqual(["zzzz9999"]);
  });
});

describe("redact on texts quoting server URLs", () => {
  it("masks key-like parameters and token paths in any message", () => {
    const text = "connect to https://mcp.example.com/s/abcDEF1234567890/mcp?api_key=sekrit123 failed: ECONNREFUSED";
    const out = redact(text);
    expect(out).not.toContain("abcDEF1234567890");
    expect(out).not.toContain("sekrit123");
    expect(out).toContain("https://mcp.example.com/s/");
  });

  it("leaves URLs without credentials exactly as written", () => {
    const text = "see https://example.com. Or (https://example.com/docs?page=2).";
    expect(redact(text)).toBe(text);
  });
});
