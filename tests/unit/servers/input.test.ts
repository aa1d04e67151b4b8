/**
 * Server bodies are parsed at the boundary by the config's own schema (lib/servers/input.ts): what
 * the services receive is already valid, and a bad name or key answers `server.invalid_config`
 * naming it, as the form and docs/errors.md expect.
 */
import { describe, expect, it } from "vitest";
import type { AppError } from "@/lib/errors";
import { errorResponse, parseJsonText } from "@/lib/http";
import { connectionTestSchema, newServerSchema, serverChangeSchema } from "@/lib/servers/input";

function thrown(parse: () => unknown): AppError {
  try {
    parse();
  } catch (error) {
    return error as AppError;
  }
  throw new Error("expected a refusal");
}

describe("server bodies at the boundary", () => {
  it("hands the service a parsed config", () => {
    const input = newServerSchema.parse({ name: "docs", config: { url: "https://mcp.example.com/mcp", timeout: 30 } });
    expect(input).toMatchObject({ name: "docs", config: { url: "https://mcp.example.com/mcp", timeout: 30 } });
    expect(serverChangeSchema.parse({ memberKeys: ["headers.x-key"] })).toEqual({ memberKeys: ["headers.x-key"] });
  });

  it("refuses a bad config key or name with server.invalid_config naming it", async () => {
    const header = thrown(() => newServerSchema.parse({ name: "r", config: { url: "https://a.example/mcp", headers: { Host: "x" } } }));
    expect(header).toMatchObject({ code: "server.invalid_config", field: "config.headers.Host" });
    expect(header.message).toContain("`Host`");
    expect(thrown(() => newServerSchema.parse({ name: "bad name!", config: { url: "https://a.example/mcp" } }))).toMatchObject({
      code: "server.invalid_config",
      field: "name",
    });
    expect(thrown(() => newServerSchema.parse({ name: "none", config: {} }))).toMatchObject({ field: "config.command" });
    expect(thrown(() => serverChangeSchema.parse({ config: { url: "https://a.example", timeout: "soon" } }))).toMatchObject({
      code: "server.invalid_config",
      field: "config.timeout",
    });
    // The test form's config error is answered as before: server.invalid_config on the key itself.
    const test = errorResponse(thrown(() => connectionTestSchema.parse({ config: { url: "ftp://a.example" } })));
    expect(test.status).toBe(400);
    expect(await test.json()).toMatchObject({ code: "server.invalid_config", field: "url" });
  });

  it("refuses an unknown envelope key or a bad memberKeys list as request.invalid", () => {
    expect(thrown(() => parseJsonText('{"name":"a","config":{"url":"https://a.example"},"colour":"red"}', newServerSchema))).toMatchObject({
      code: "request.invalid",
    });
    expect(thrown(() => parseJsonText('{"memberKeys":"headers.x"}', serverChangeSchema))).toMatchObject({
      code: "request.invalid",
      field: "memberKeys",
    });
  });
});
