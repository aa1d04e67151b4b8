/**
 * Outbound OAuth exchanges have a time limit: an endpoint that accepts the connection and never
 * answers fails with a timeout instead of holding the request that waits for it.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oauthTimeoutMs, withTimeout } from "@/lib/net/fetch-timeout";

let silent: http.Server;
let url = "";
beforeAll(async () => {
  silent = http.createServer(() => {}); // never answers
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/.well-known/oauth-authorization-server`;
});
afterAll(() => {
  silent.closeAllConnections();
  silent.close();
});

describe("withTimeout", () => {
  it("fails a request to an endpoint that never answers", async () => {
    await expect(withTimeout(fetch, 200)(url)).rejects.toMatchObject({ name: "TimeoutError" });
  });

  it("keeps the caller's own abort", async () => {
    const abort = new AbortController();
    const pending = withTimeout(fetch, 60_000)(url, { signal: abort.signal });
    abort.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
  });

  it("reads SWITCHBOARD_OAUTH_TIMEOUT_SECONDS (default 15 s)", () => {
    expect(oauthTimeoutMs({})).toBe(15_000);
    expect(oauthTimeoutMs({ SWITCHBOARD_OAUTH_TIMEOUT_SECONDS: "3" })).toBe(3000);
  });
});
