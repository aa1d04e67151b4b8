/**
 * Error families recognised across bundles: the app loads its modules twice in one process (Next's
 * route bundle and the direct lane's), so an error made by one copy of a class must be answered by
 * the other copy's `errorResponse` exactly as by its own — same status, code and Retry-After. Two
 * copies are made here by loading the modules twice, as the two bundles do.
 */
import { beforeAll, describe, expect, it, vi } from "vitest";

type Modules = Awaited<ReturnType<typeof load>>;

async function load() {
  vi.resetModules();
  return {
    http: await import("@/lib/http"),
    errors: await import("@/lib/errors"),
    engine: await import("@/lib/mcp/errors"),
    stepUp: await import("@/lib/mcp/step-up"),
    config: await import("@/lib/mcp/config"),
    net: await import("@/lib/net/errors"),
    oauth: await import("@/lib/oauth/shared/errors"),
    crypto: await import("@/lib/crypto"),
    quotas: await import("@/lib/quotas/errors"),
  };
}

let next: Modules;
let lane: Modules;

beforeAll(async () => {
  next = await load();
  lane = await load();
});

// One error of every family, made by the copy `m`.
function families(m: Modules): [string, Error][] {
  return [
    ["validation (AppError)", new m.errors.AppError("request.invalid", "name: required", "name")],
    ["quota (QuotaError)", new m.quotas.QuotaError("connectionsTotal", 2000, "open server connections on this instance", 30)],
    ["engine: needs authorization", new m.engine.EngineError("needs_authorization", "connect it first")],
    ["engine: step-up", new m.stepUp.StepUpRequiredError("s", "read write")],
    ["engine: quota", new m.engine.EngineError("quota_exceeded", "too many connections")],
    ["engine: unreachable", new m.engine.EngineError("unreachable", "cannot reach it (ECONNRESET)")],
    ["config", new m.config.ConfigError("s", "timeout", "must be a number")],
    ["network (SSRF)", new m.net.BlockedRequestError("http://10.0.0.1/", "private address")],
    ["network (scheme)", new m.net.UnsafeUrlError("insecure_url", "https required")],
    ["oauth", new m.oauth.OAuthFlowError("exchange_failed")],
    ["instance key", new m.crypto.SecretKeyError("wrong key")],
  ];
}

async function answer(http: Modules["http"], error: Error) {
  const response = http.errorResponse(error);
  return { status: response.status, body: await response.json(), retryAfter: response.headers.get("retry-after") };
}

describe("error families across two bundles", () => {
  it("the copies are distinct classes, as in the built app", () => {
    expect(next.engine.EngineError).not.toBe(lane.engine.EngineError);
    expect(Object.getPrototypeOf(new next.engine.EngineError("unreachable", "x"))).not.toBe(lane.engine.EngineError.prototype);
  });

  it.each([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10])("family %i: the lane's errorResponse answers Next's error as Next does", async (index) => {
    const [name, made] = families(next)[index];
    const own = await answer(next.http, made);
    const other = await answer(lane.http, made);
    expect(other, name).toEqual(own);
    expect(own.body.code, name).not.toBe("internal.error");
  });

  it("keeps each family's status, code and Retry-After", async () => {
    const byName = Object.fromEntries(await Promise.all(families(next).map(async ([name, e]) => [name, await answer(lane.http, e)])));
    expect(byName["engine: needs authorization"]).toMatchObject({ status: 409, body: { code: "engine.needs_authorization" } });
    expect(byName["quota (QuotaError)"]).toMatchObject({ status: 429, body: { code: "quota.exceeded" }, retryAfter: "30" });
    expect(byName["engine: quota"]).toMatchObject({ status: 429, body: { code: "engine.quota_exceeded" }, retryAfter: "30" });
    expect(byName["engine: unreachable"]).toMatchObject({ status: 502, body: { code: "engine.unreachable" } });
    expect(byName["network (SSRF)"]).toMatchObject({ status: 403, body: { code: "net.ssrf_blocked" } });
    expect(byName.oauth).toMatchObject({ status: 400, body: { code: "oauth.exchange_failed" } });
    expect(byName["validation (AppError)"]).toMatchObject({ status: 400, body: { code: "request.invalid", field: "name" } });
  });

  it("instanceof holds across copies, and only along the real class chain", () => {
    const blocked = new next.net.BlockedRequestError("http://10.0.0.1/", "private");
    expect(blocked instanceof lane.net.BlockedRequestError).toBe(true);
    expect(blocked instanceof lane.net.NetError).toBe(true);
    expect(blocked instanceof lane.net.UnsafeUrlError).toBe(false);
    expect(new next.net.NetError("dns_failed", 502, "x") instanceof lane.net.BlockedRequestError).toBe(false);
    expect(new next.stepUp.StepUpRequiredError("s", "a") instanceof lane.engine.EngineError).toBe(true);
    expect(new next.engine.EngineError("unreachable", "x") instanceof lane.stepUp.StepUpRequiredError).toBe(false);
    expect(new next.quotas.QuotaError("sandboxesTotal", 1, "x", 1) instanceof lane.errors.AppError).toBe(true);
    expect(lane.engine.isEngineError(new next.engine.EngineError("call_timeout", "x"), "call_timeout")).toBe(true);
  });

  it("a look-alike without the brand is no family's error", async () => {
    const impostor = Object.assign(new Error("x"), { code: "needs_authorization", name: "EngineError" });
    expect(impostor instanceof lane.engine.EngineError).toBe(false);
    vi.spyOn(console, "error").mockImplementation(() => {});
    expect((await answer(lane.http, impostor)).body.code).toBe("internal.error");
    expect({ code: "x" } instanceof lane.errors.AppError).toBe(false);
    expect((null as unknown as object) instanceof lane.errors.AppError).toBe(false);
  });
});
