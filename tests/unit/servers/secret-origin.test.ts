import { describe, expect, it } from "vitest";
import { SECRET_MASK } from "@/db/server-secrets";
import { parseServerConfig } from "@/lib/mcp/config";
import { isSendable } from "@/lib/servers/member-value-store";
import { restoreMaskedSecrets, secretOrigin } from "@/lib/servers/secrets";

describe("secretOrigin", () => {
  it.each([
    ["https://api.example.com/mcp", "https://api.example.com"],
    ["https://API.Example.com:443/other?x=1", "https://api.example.com"],
    ["http://api.example.com:80/mcp", "http://api.example.com"],
    ["https://api.example.com:8443/mcp", "https://api.example.com:8443"],
    ["http://127.0.0.1:3000/mcp", "http://127.0.0.1:3000"],
  ])("%s is bound to %s", (url, origin) => {
    expect(secretOrigin({ url })).toBe(origin);
  });

  it("tells scheme, host and port apart, and gives stdio servers none", () => {
    const origins = ["http://a.example/mcp", "https://a.example/mcp", "https://b.example/mcp", "https://a.example:8443/mcp"].map((url) =>
      secretOrigin({ url }),
    );
    expect(new Set(origins).size).toBe(4);
    expect(secretOrigin({})).toBeNull();
  });
});

describe("restoreMaskedSecrets across origins", () => {
  const stored = { headers: { "x-api-key": "k-123" }, oauthClientSecret: "cs-456" };

  it("keeps masked values on the same origin and refuses them on another, naming the field", () => {
    const edited = parseServerConfig({ url: "https://new.example/mcp", headers: { "x-api-key": SECRET_MASK } });
    expect(restoreMaskedSecrets(edited, stored).config.headers).toEqual({ "x-api-key": "k-123" });
    expect(restoreMaskedSecrets(edited, stored, false)).toMatchObject({ moved: "headers.x-api-key" });
    const client = parseServerConfig({ url: "https://new.example/mcp", oauth: { client_id: "c", client_secret: SECRET_MASK } });
    expect(restoreMaskedSecrets(client, stored, false)).toMatchObject({ moved: "oauth.client_secret" });
  });

  it("accepts values entered again for the new origin", () => {
    const edited = parseServerConfig({ url: "https://new.example/mcp", headers: { "x-api-key": "fresh" } });
    const restored = restoreMaskedSecrets(edited, stored, false);
    expect(restored.moved).toBeUndefined();
    expect(restored.config.headers).toEqual({ "x-api-key": "fresh" });
  });
});

describe("isSendable", () => {
  it("sends a member's value only to the origin it was entered for (unknown: the current one)", () => {
    expect(isSendable({ value: "v", origin: "https://a.example" }, "https://a.example")).toBe(true);
    expect(isSendable({ value: "v", origin: "https://a.example" }, "https://b.example")).toBe(false);
    expect(isSendable({ value: "v" }, "https://b.example")).toBe(true);
    expect(isSendable({ value: "v", origin: null }, null)).toBe(true);
  });
});
