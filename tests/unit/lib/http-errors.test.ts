/**
 * Errors become responses in one place (lib/http.ts): each family's code gets its namespace, the
 * status comes from the one table in lib/errors.ts, and unknown errors never leak their message.
 */
import { describe, expect, it, vi } from "vitest";
import { SecretKeyError } from "@/lib/crypto";
import { AppError, ERROR_STATUS } from "@/lib/errors";
import { errorResponse } from "@/lib/http";
import { ConfigError } from "@/lib/mcp/config";
import { EngineError } from "@/lib/mcp/errors";
import { BlockedRequestError, UnsafeUrlError } from "@/lib/net/errors";
import { OAuthFlowError } from "@/lib/oauth/shared/errors";

async function answer(error: unknown) {
  const response = errorResponse(error);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("errorResponse", () => {
  it.each([
    [new AppError("server.name_taken", "taken", "name"), 409, { code: "server.name_taken", message: "taken", field: "name" }],
    [new ConfigError("x", "timeout", "must be a number"), 400, { code: "server.invalid_config", field: "timeout" }],
    [new EngineError("call_timeout", "x: timed out"), 504, { code: "engine.call_timeout" }],
    [new EngineError("launch_refused", "no sandbox"), 503, { code: "engine.launch_refused" }],
    [new EngineError("not_found", "no tool"), 404, { code: "engine.not_found" }],
    [new BlockedRequestError("http://10.0.0.1/", "private address"), 403, { code: "net.ssrf_blocked" }],
    [new UnsafeUrlError("insecure_url", "https required"), 400, { code: "net.insecure_url" }],
    [new OAuthFlowError("insecure_url"), 400, { code: "oauth.insecure_url" }],
    [new SecretKeyError("wrong key"), 500, { code: "instance.secret_key", message: "wrong key" }],
  ])("%s → namespaced code and the table's status", async (error, status, expected) => {
    const { status: actual, body } = await answer(error);
    expect(actual).toBe(status);
    expect(body).toMatchObject(expected);
    expect(ERROR_STATUS[body.code as keyof typeof ERROR_STATUS]).toBe(status);
  });

  it("answers an unknown error as internal.error without its message, logging it redacted", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const { status, body } = await answer(new Error("db at postgres://u:hunter2@db failed, token=abc123"));
      expect(status).toBe(500);
      expect(body).toEqual({ code: "internal.error", message: "Something went wrong on the server." });
      expect(String(log.mock.calls[0]?.[1])).not.toContain("abc123");
    } finally {
      log.mockRestore();
    }
  });

  it("namespaces every code by family", () => {
    for (const code of Object.keys(ERROR_STATUS)) expect(code).toMatch(/^[a-z]+\.[a-z_]+$/);
  });
});
