import { afterEach, describe, expect, it, vi } from "vitest";

const ENV = "SWITCHBOARD_ALLOWED_HOSTS";

describe("allowedHostsFromEnv / guardedFetchFromEnv", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it("reads SWITCHBOARD_ALLOWED_HOSTS once", async () => {
    vi.stubEnv(ENV, "intranet.example, 10.1.0.0/16");
    const { allowedHostsFromEnv } = await import("@/lib/net");
    const first = allowedHostsFromEnv();
    expect([...first.hosts]).toEqual(["intranet.example"]);
    vi.stubEnv(ENV, "other.example");
    expect(allowedHostsFromEnv()).toBe(first);
  });

  it("is empty when unset, and a bad entry fails loudly", async () => {
    vi.stubEnv(ENV, undefined);
    const net = await import("@/lib/net");
    expect(net.allowedHostsFromEnv()).toEqual({ hosts: new Set(), networks: [] });
    vi.resetModules();
    vi.stubEnv(ENV, "10.0.0.0/99");
    const fresh = await import("@/lib/net");
    expect(() => fresh.guardedFetchFromEnv()).toThrow(fresh.AllowListError);
  });

  it("builds a guarded fetch that blocks before connecting", async () => {
    vi.stubEnv(ENV, "");
    const { guardedFetchFromEnv, BlockedRequestError } = await import("@/lib/net");
    const fetch = guardedFetchFromEnv({ allowHttp: "always" });
    await expect(fetch("http://169.254.169.254/latest/meta-data/")).rejects.toBeInstanceOf(BlockedRequestError);
    await fetch.close();
  });
});
