import { describe, expect, it } from "vitest";
import { parseServerConfig } from "@/lib/mcp/config";
import { SECRET_MASK, mergeSecrets, splitSecrets } from "@/db/server-secrets";
import { restoreMaskedSecrets } from "@/lib/servers/secrets";

const config = parseServerConfig({
  url: "https://mcp.example.com/mcp",
  headers: { Authorization: "Bearer ghp_abcdefghijklmnop1234", "X-Team": "blue" },
  oauth: { client_id: "abc", client_secret: "s3cret-value" },
});

describe("server secrets", () => {
  it("masks every header value and the client secret", () => {
    const { masked, secrets } = splitSecrets(config);
    expect(masked.headers).toEqual({ Authorization: SECRET_MASK, "X-Team": SECRET_MASK });
    expect(masked.oauth).toEqual({ client_id: "abc", client_secret: SECRET_MASK });
    expect(JSON.stringify(masked)).not.toMatch(/ghp_|s3cret|blue/);
    expect(mergeSecrets(masked, secrets)).toEqual(config);
  });

  it("keeps stored values for masks sent back, takes new values otherwise", () => {
    const { secrets } = splitSecrets(config);
    const edited = parseServerConfig({ url: "https://mcp.example.com/mcp", headers: { Authorization: SECRET_MASK, "X-Team": "red" } });
    expect(restoreMaskedSecrets(edited, secrets).config.headers).toEqual({
      Authorization: "Bearer ghp_abcdefghijklmnop1234",
      "X-Team": "red",
    });
  });

  it("reports a mask with nothing stored behind it", () => {
    const edited = parseServerConfig({ command: "node", env: { NEW_KEY: SECRET_MASK } });
    expect(restoreMaskedSecrets(edited, {}).missing).toBe("env.NEW_KEY");
  });
});
