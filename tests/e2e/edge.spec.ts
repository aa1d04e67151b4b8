/**
 * The app's edge, through the running built app (scripts/server.mjs): the throttles' client address
 * cannot be chosen with X-Forwarded-For unless the peer is a trusted proxy (this run trusts 127.0.0.1
 * and ::1, playwright.config.ts; a client on 127.0.0.2 is not one), event streams are capped per user
 * and a closed stream frees its slot, a body declared over the cap is refused unread, and every error
 * family gets the same status, code and Retry-After on the direct lane as from Next.
 */
import http from "node:http";
import net from "node:net";
import { type APIRequestContext, type APIResponse, request as playwrightRequest } from "@playwright/test";
import { expect, test } from "./helpers/fixtures";
import { newAccount, setupCode } from "./pages/app";
import { OAuthFixtureProcess } from "./pages/oauth";

const PORT = Number(process.env.E2E_PORT ?? 3111);
const BASE = `http://localhost:${PORT}`;

test.describe.configure({ timeout: 120_000 });

/** A plain HTTP exchange with the app from `localAddress` (another loopback address is another peer). */
function exchange(options: {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  localAddress?: string;
}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port: PORT,
        method: options.method ?? "GET",
        path: options.path,
        headers: options.headers,
        localAddress: options.localAddress,
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          body += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

/** One failed credentials sign-in (a made-up account) from `localAddress`, claiming `forwardedFor`. */
async function failedSignIn(localAddress: string, forwardedFor: string): Promise<number> {
  const csrf = await exchange({ path: "/api/auth/csrf", localAddress });
  const cookie = (csrf.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]).join("; ");
  const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string };
  const email = `nobody-${Math.random().toString(36).slice(2)}@example.com`;
  const form = new URLSearchParams({ csrfToken, email, password: "not the password", json: "true" }).toString();
  const answer = await exchange({
    method: "POST",
    path: "/api/auth/callback/credentials",
    headers: { cookie, "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": forwardedFor },
    body: form,
    localAddress,
  });
  return answer.status;
}

/** A fresh user signed in on its own API client; returns the client and its cookie header. */
async function signedIn(prefix: string): Promise<{ api: APIRequestContext; cookie: string }> {
  const account = newAccount(prefix);
  const api = await playwrightRequest.newContext({ baseURL: BASE });
  const code = setupCode();
  expect((await api.post("/api/auth/register", { data: code ? { ...account, setupCode: code } : account })).status()).toBe(201);
  const { csrfToken } = await (await api.get("/api/auth/csrf")).json();
  const signIn = await api.post("/api/auth/callback/credentials", {
    form: { csrfToken, email: account.email, password: account.password, json: "true" },
  });
  expect(signIn.ok()).toBe(true);
  const cookies = (await api.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join("; ");
  return { api, cookie: cookies };
}

test.describe("client address", () => {
  test("a spoofed X-Forwarded-For from an untrusted peer does not move the sign-in throttle", async () => {
    // 20 failures from 127.0.0.2, each claiming another address: one bucket, so the 21st is throttled.
    for (let i = 0; i < 20; i++) expect(await failedSignIn("127.0.0.2", `198.51.100.${i + 1}`)).toBe(401);
    expect(await failedSignIn("127.0.0.2", "198.51.100.250")).toBe(429);
  });

  test("behind a trusted proxy, the address it reports is the client's", async () => {
    // 127.0.0.1 is a trusted proxy in this run: each reported address is its own bucket.
    for (let i = 0; i < 24; i++) expect(await failedSignIn("127.0.0.1", `203.0.113.${i + 1}`)).toBe(401);
  });
});

test.describe("event streams", () => {
  test("the N+1th stream of a user gets 429, and closing one frees its slot", async () => {
    const { api, cookie } = await signedIn("streams");
    const open: http.ClientRequest[] = [];
    const openStream = () =>
      new Promise<{ status: number; body: string; req: http.ClientRequest }>((resolve, reject) => {
        const req = http.get({ host: "127.0.0.1", port: PORT, path: "/api/events", headers: { cookie } }, (res) => {
          if (res.statusCode === 200) return resolve({ status: 200, body: "", req });
          let body = "";
          res.on("data", (chunk) => {
            body += chunk;
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body, req }));
        });
        req.on("error", (error) => (req.destroyed ? undefined : reject(error)));
      });
    try {
      for (let i = 0; i < 20; i++) {
        const stream = await openStream();
        expect(stream.status).toBe(200);
        open.push(stream.req);
      }
      const refused = await openStream();
      expect(refused.status).toBe(429);
      expect(JSON.parse(refused.body)).toMatchObject({ code: "quota.exceeded" });
      expect(refused.body).toContain("SWITCHBOARD_QUOTA_EVENT_STREAMS_PER_USER");

      open.shift()?.destroy();
      // The server notices the closed socket and frees the slot.
      await expect
        .poll(async () => {
          const next = await openStream();
          if (next.status === 200) open.push(next.req);
          return next.status;
        })
        .toBe(200);
    } finally {
      for (const req of open) req.destroy();
      await api.dispose();
    }
  });
});

test.describe("request bodies", () => {
  test("a body declared over the cap is refused with 413 before it is sent", async () => {
    const socket = net.connect(PORT, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    let answer = "";
    socket.on("data", (chunk) => {
      answer += chunk.toString();
    });
    const closed = new Promise((resolve) => socket.once("close", resolve));
    // 50 MB declared, one kilobyte sent: an unauthenticated route, the answer comes without the rest.
    socket.write(
      `POST /api/auth/register HTTP/1.1\r\nHost: localhost:${PORT}\r\nContent-Type: application/json\r\nContent-Length: 50000000\r\n\r\n${"x".repeat(1024)}`,
    );
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
    expect(answer).toContain('"code":"request.too_large"');
  });
});

test.describe("error families: the direct lane answers as Next does", () => {
  const oauth = new OAuthFixtureProcess(300);
  let resetting: net.Server;
  let resetUrl = "";

  test.beforeAll(async () => {
    await oauth.start();
    // An upstream that resets every connection it accepts.
    resetting = net.createServer((socket) => socket.resetAndDestroy());
    await new Promise<void>((resolve) => resetting.listen(0, "127.0.0.1", resolve));
    resetUrl = `http://127.0.0.1:${(resetting.address() as net.AddressInfo).port}/mcp`;
  });
  test.afterAll(() => {
    oauth.stop();
    resetting?.close();
  });

  const summary = async (response: APIResponse) => ({
    status: response.status(),
    code: ((await response.json()) as { code: string }).code,
    retryAfter: response.headers()["retry-after"] !== undefined,
  });
  const onLane = (response: APIResponse) => (response.headers()["server-timing"] ?? "").includes('lane;desc="direct"');

  async function addServer(api: APIRequestContext, name: string, config: Record<string, unknown>): Promise<string> {
    const created = await api.post("/api/servers", { data: { name, config } });
    expect(created.status()).toBe(201);
    return ((await created.json()) as { id: string }).id;
  }

  test("engine (needs authorization, unreachable), validation and quota", async ({ everything }) => {
    const { api } = await signedIn("parity");
    const guarded = await addServer(api, "guarded", { url: oauth.mcpUrl, auth: "oauth" });
    const reset = await addServer(api, "reset", { url: resetUrl, connect_timeout: 5 });

    for (const [id, expected] of [
      [guarded, { status: 409, code: "engine.needs_authorization", retryAfter: false }],
      [reset, { status: 502, code: "engine.unreachable", retryAfter: false }],
    ] as const) {
      // Next first: the engine pool is then built by Next's bundle, the case the lane got wrong.
      const next = await api.get(`/api/servers/${id}/tools`);
      const lane = await api.post(`/api/servers/${id}/tools/call`, { data: { name: "echo", arguments: {} } });
      expect(onLane(lane)).toBe(true);
      expect(onLane(next)).toBe(false);
      expect(await summary(next)).toEqual(expected);
      expect(await summary(lane)).toEqual(expected);
    }

    // Validation: each path's own schema refuses a missing field the same way.
    const good = await addServer(api, "everything", { url: everything.url });
    const badNext = await api.post(`/api/servers/${good}/resources/read`, { data: {} });
    const badLane = await api.post(`/api/servers/${good}/tools/call`, { data: {} });
    expect(await summary(badLane)).toEqual(await summary(badNext));
    expect((await summary(badLane)).code).toBe("request.invalid");

    // Quota: the lane's concurrent-call quota (16 per user) and Next's reconnect quota (20 a minute)
    // answer alike: 429, quota.exceeded, Retry-After.
    const slow = Array.from({ length: 17 }, () =>
      api.post(`/api/servers/${good}/tools/call`, {
        data: { name: "trigger-long-running-operation", arguments: { duration: 4, steps: 1 } },
      }),
    );
    const laneAnswers = await Promise.all(slow);
    const laneRefused = laneAnswers.filter((r) => r.status() === 429);
    expect(laneRefused.length).toBeGreaterThan(0);
    expect(onLane(laneRefused[0])).toBe(true);
    let nextRefused: APIResponse | undefined;
    for (let i = 0; i < 25 && !nextRefused; i++) {
      const answer = await api.post(`/api/servers/${reset}/reconnect`, { data: {} });
      if (answer.status() === 429) nextRefused = answer;
    }
    expect(nextRefused).toBeDefined();
    const quota = { status: 429, code: "quota.exceeded", retryAfter: true };
    expect(await summary(laneRefused[0])).toEqual(quota);
    expect(await summary(nextRefused!)).toEqual(quota);
    await api.dispose();
  });
});
