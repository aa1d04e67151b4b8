/**
 * The SSRF guard against real servers. Only 127.0.0.0/8 is ever contacted: every "blocked" case
 * must be refused before a socket exists, which the counters and undici's own connect
 * diagnostics prove. Host names are served by an injected resolver, never by real DNS.
 */
import { createServer as createTlsServer } from "node:tls";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  BlockedRequestError,
  NetError,
  UnsafeUrlError,
  assertHttpsUnlessLoopback,
  createGuardedFetch,
  parseAllowedHosts,
  parseIpLiteral,
  type GuardedFetch,
  type GuardedFetchOptions,
  type Resolver,
} from "@/lib/net";
import { Agent, fetch as undiciFetch } from "undici";
import { pinnedConnector } from "@/lib/net/pinned-agent";
import { recordConnections, startCountingServer, type ConnectRecord, type CountingServer } from "./counting-server";

let target: CountingServer; // an internal service nobody may reach unless allow-listed
let pub: CountingServer; // stands in for a public server: allow-listed by name as public.test
let other: CountingServer; // a second allowed origin, other.test
let sseRelease: () => void = () => {};

const names = new Map<string, string[]>();
const resolverCalls: string[] = [];
/** A resolver from a table; unknown names fail like NXDOMAIN (never real DNS). */
const resolver: Resolver = async (hostname) => {
  resolverCalls.push(hostname);
  const addresses = names.get(hostname);
  if (!addresses) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
  return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
};

const opened: GuardedFetch[] = [];
function guarded(options: Partial<GuardedFetchOptions> = {}): GuardedFetch {
  const fetch = createGuardedFetch({ allowedHosts: parseAllowedHosts("public.test, other.test"), resolver, ...options });
  opened.push(fetch);
  return fetch;
}

let connections: { records: ConnectRecord[]; stop(): void };
let targetSeen = { connections: 0, requests: 0 };

/** The internal target got no connection and no request during this test. */
function expectTargetUntouched() {
  expect(target.connections).toBe(targetSeen.connections);
  expect(target.requests).toBe(targetSeen.requests);
}

beforeAll(async () => {
  target = await startCountingServer((_req, res) => res.end("internal secret"));
  other = await startCountingServer((req, res, body) => {
    res.setHeader("content-type", "application/json");
    res.end(
      JSON.stringify({ method: req.method, authorization: req.headers.authorization ?? null, cookie: req.headers.cookie ?? null, body }),
    );
  });
  pub = await startCountingServer((req, res, body) => {
    const url = new URL(req.url ?? "/", "http://public.test");
    if (url.pathname === "/redirect") {
      res.writeHead(Number(url.searchParams.get("status") ?? 302), { location: url.searchParams.get("to") ?? "/" });
      res.end("moved");
    } else if (url.pathname.startsWith("/loop/")) {
      const n = Number(url.pathname.slice("/loop/".length));
      const stop = Number(url.searchParams.get("stop") ?? Infinity);
      if (n >= stop) res.end(`done after ${n}`);
      else res.writeHead(302, { location: `/loop/${n + 1}${url.search}` }).end();
    } else if (url.pathname === "/echo") {
      res.setHeader("content-type", "application/json");
      res.end(
        JSON.stringify({
          method: req.method,
          authorization: req.headers.authorization ?? null,
          cookie: req.headers.cookie ?? null,
          contentType: req.headers["content-type"] ?? null,
          body,
        }),
      );
    } else if (url.pathname === "/.well-known/oauth-authorization-server") {
      res.setHeader("content-type", "application/json");
      res.end(
        JSON.stringify({
          issuer: "http://public.test",
          authorization_endpoint: `http://127.0.0.1:${target.port}/authorize`,
          token_endpoint: `http://127.0.0.1:${target.port}/token`,
          registration_endpoint: `http://localhost:${target.port}/register`,
        }),
      );
    } else if (url.pathname === "/hang") {
      res.writeHead(200).write("partial");
    } else if (url.pathname === "/sse") {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.write("data: one\n\n");
      // The rest is only sent once the test has read the first event: proof the body streams.
      sseRelease = () => {
        res.write("data: two\n\n");
        res.end("data: three\n\n");
      };
    } else {
      res.end("public ok");
    }
  });
});

afterAll(async () => {
  await Promise.all([target.close(), pub.close(), other.close()]);
});

beforeEach(() => {
  names.clear();
  names.set("public.test", ["127.0.0.1"]);
  names.set("other.test", ["127.0.0.1"]);
  names.set("evil.test", ["127.0.0.1"]);
  names.set("metadata.test", ["169.254.169.254"]);
  resolverCalls.length = 0;
  connections = recordConnections();
  targetSeen = { connections: target.connections, requests: target.requests };
});

afterEach(async () => {
  connections.stop();
  await Promise.all(opened.splice(0).map((f) => f.close()));
});

/** Expect a BlockedRequestError whose message names the URL and the reason. */
async function expectBlocked(promise: Promise<unknown>, ...parts: string[]): Promise<BlockedRequestError> {
  const error = await promise.then(
    () => expect.unreachable("request was not blocked"),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BlockedRequestError);
  const blocked = error as BlockedRequestError;
  expect(blocked.code).toBe("ssrf_blocked");
  for (const part of parts) expect(blocked.message).toContain(part);
  return blocked;
}

/** No socket was ever opened except to the given (allowed) ports. */
function expectConnectionsOnlyTo(...ports: number[]) {
  for (const record of connections.records) expect(ports.map(String)).toContain(record.port);
}

describe("direct requests", () => {
  it("(a) blocks a loopback server; it receives nothing", async () => {
    const fetch = guarded();
    const blocked = await expectBlocked(fetch(`${target.url}/`), `blocked http://127.0.0.1:${target.port}/`, "127.0.0.1 is loopback");
    expect(blocked.reason).toBe("127.0.0.1 is loopback");
    expectTargetUntouched();
    expect(connections.records).toEqual([]);
  });

  it.each([
    ["decimal", (p: number) => `http://2130706433:${p}/`],
    ["octal", (p: number) => `http://0177.0.0.1:${p}/`],
    ["hex short", (p: number) => `http://0x7f.1:${p}/`],
    ["IPv4-mapped", (p: number) => `http://[::ffff:127.0.0.1]:${p}/`],
    ["IPv4-mapped hex", (p: number) => `http://[::ffff:7f00:1]:${p}/`],
    ["IPv4-compatible", (p: number) => `http://[::127.0.0.1]:${p}/`],
    ["NAT64", (p: number) => `http://[64:ff9b::7f00:1]:${p}/`],
    ["6to4", (p: number) => `http://[2002:7f00:1::]:${p}/`],
    ["localhost", (p: number) => `http://localhost:${p}/`],
    ["localhost subdomain", (p: number) => `http://a.localhost:${p}/`],
    ["0.0.0.0", (p: number) => `http://0.0.0.0:${p}/`],
    ["::", (p: number) => `http://[::]:${p}/`],
    ["name resolving to loopback (d)", (p: number) => `http://evil.test:${p}/`],
  ])("blocks loopback spelled %s before connecting", async (_name, url) => {
    await expectBlocked(guarded()(url(target.port)), "blocked http://");
    expectTargetUntouched();
    expect(connections.records).toEqual([]);
  });

  it("blocks cloud metadata, by address and by name, without any socket", async () => {
    const fetch = guarded();
    await expectBlocked(
      fetch("http://169.254.169.254/latest/meta-data/"),
      "blocked http://169.254.169.254/latest/meta-data/: 169.254.169.254 is link-local (cloud metadata)",
    );
    await expectBlocked(fetch("http://[::ffff:169.254.169.254]/"), "link-local (cloud metadata) (IPv4-mapped 169.254.169.254)");
    await expectBlocked(
      fetch("http://metadata.test/computeMetadata/v1/"),
      "metadata.test resolves to 169.254.169.254, which is link-local",
    );
    expect(connections.records).toEqual([]);
  });

  it("blocks a name when any one of its addresses is blocked", async () => {
    names.set("mixed.test", ["8.8.8.8", "10.0.0.5"]);
    await expectBlocked(guarded()("https://mixed.test/"), "mixed.test resolves to 10.0.0.5, which is private (RFC 1918)");
    expect(connections.records).toEqual([]);
  });

  it("refuses credentials in the URL without echoing them", async () => {
    const blocked = await expectBlocked(guarded()(`http://user:hunter2@public.test:${pub.port}/`), "must not carry credentials");
    expect(blocked.message).not.toContain("hunter2");
    expect(pub.requests).toBe(0);
  });

  it("refuses non-http schemes", async () => {
    await expectBlocked(guarded()("file:///etc/passwd"), "scheme file: is not allowed");
  });

  it("(b) reaches a loopback server once its address is allow-listed", async () => {
    const fetch = guarded({ allowedHosts: parseAllowedHosts("127.0.0.1") });
    const before = target.requests;
    const response = await fetch(`${target.url}/`);
    expect(await response.text()).toBe("internal secret");
    expect(target.requests).toBe(before + 1);
    // Allowing 127.0.0.1 does not open the rest of 127/8 nor other names for it.
    await expectBlocked(fetch(`http://127.0.0.2:${target.port}/`), "127.0.0.2 is loopback");
  });

  it("reaches allow-listed IPv6 loopback by literal and by name, blocks it otherwise", async () => {
    const v6 = await startCountingServer((_req, res) => res.end("v6"), { host: "::1" });
    try {
      const url = `http://[::1]:${v6.port}/`;
      await expectBlocked(guarded()(url), "::1 is loopback");
      await expectBlocked(guarded()(`http://[::ffff:127.0.0.1]:${v6.port}/`), "loopback");
      expect(v6.connections).toBe(0);
      const fetch = guarded({ allowedHosts: parseAllowedHosts("::1") });
      expect(await (await fetch(url)).text()).toBe("v6");
      names.set("six.test", ["::1"]);
      expect(await (await fetch(`http://six.test:${v6.port}/`)).text()).toBe("v6");
      // Both families checked and pinned; the connection may use either, and only those.
      names.set("dual.test", ["127.0.0.1", "::1"]);
      const dual = guarded({ allowedHosts: parseAllowedHosts("dual.test") });
      expect(await (await dual(`http://dual.test:${v6.port}/`)).text()).toBe("v6");
      for (const r of connections.records.filter((c) => c.port === String(v6.port)))
        expect(["::1", "127.0.0.1"]).toContain(r.remoteAddress);
    } finally {
      await v6.close();
    }
  });

  it("reaches an allow-listed host name, and accepts a Request object", async () => {
    const fetch = guarded();
    const response = await fetch(
      new Request(`http://public.test:${pub.port}/echo`, { method: "POST", body: "hello", headers: { "content-type": "text/plain" } }),
    );
    expect(await response.json()).toMatchObject({ method: "POST", body: "hello", contentType: "text/plain" });
    expectConnectionsOnlyTo(pub.port);
  });

  it("sends FormData and URLSearchParams bodies intact", async () => {
    const fetch = guarded();
    const form = new FormData();
    form.append("field", "value");
    const sentForm = (await fetch(`http://public.test:${pub.port}/echo`, { method: "POST", body: form }).then((r) => r.json())) as {
      body: string;
      contentType: string;
    };
    expect(sentForm.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(sentForm.body).toContain('name="field"');
    expect(sentForm.body).toContain("value");
    const sentParams = await fetch(`http://public.test:${pub.port}/echo`, {
      method: "POST",
      body: new URLSearchParams({ grant_type: "refresh_token" }),
    }).then((r) => r.json());
    expect(sentParams).toMatchObject({ body: "grant_type=refresh_token", contentType: "application/x-www-form-urlencoded;charset=UTF-8" });
  });

  it("honours an abort signal", async () => {
    const controller = new AbortController();
    const response = await guarded()(`http://public.test:${pub.port}/hang`, { signal: controller.signal });
    const reading = response.text();
    controller.abort();
    await expect(reading).rejects.toMatchObject({ name: "AbortError" });
  });

  it("connects https to the checked address with SNI for the original host name", async () => {
    const seen: Array<{ servername: string; remote?: string }> = [];
    // No certificate needed: the server records the ClientHello and aborts the handshake.
    const tlsServer = createTlsServer({
      SNICallback: (servername, done) => {
        seen.push({ servername });
        done(new Error("test server ends the handshake here"), undefined);
      },
    });
    tlsServer.on("connection", (socket) => seen.push({ servername: "", remote: socket.remoteAddress }));
    await new Promise<void>((resolve) => tlsServer.listen(0, "127.0.0.1", () => resolve()));
    try {
      names.set("secure.test", ["127.0.0.1"]);
      const port = (tlsServer.address() as AddressInfo).port;
      const fetch = guarded({ allowHttp: "never", allowedHosts: parseAllowedHosts("secure.test") });
      const failure = await fetch(`https://secure.test:${port}/`).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(TypeError); // fetch's own "fetch failed": the handshake was refused
      expect(seen).toEqual([{ servername: "", remote: "127.0.0.1" }, { servername: "secure.test" }]);
      expect(resolverCalls).toEqual(["secure.test"]);
    } finally {
      await new Promise((resolve) => tlsServer.close(resolve));
    }
  });

  it("applies the http rule: never, loopback-only, always", async () => {
    const url = `http://public.test:${pub.port}/`;
    const before = pub.requests;
    const never = await guarded({ allowHttp: "never" })(url).catch((e: unknown) => e);
    expect(never).toBeInstanceOf(UnsafeUrlError);
    expect((never as UnsafeUrlError).code).toBe("insecure_url");
    expect(pub.requests).toBe(before);
    expect((await guarded({ allowHttp: "loopback" })(url)).status).toBe(200);
    names.set("public.test", ["127.0.0.1", "8.8.8.8"]);
    await expect(guarded({ allowHttp: "loopback" })(url)).rejects.toThrow(/https is required \(http only for loopback\)/);
    expect(pub.requests).toBe(before + 1);
  });
});

describe("redirects", () => {
  const via = (to: string, status = 302) => `http://public.test:${pub.port}/redirect?status=${status}&to=${encodeURIComponent(to)}`;

  it("(c) blocks a redirect from an allowed host to cloud metadata", async () => {
    await expectBlocked(
      guarded()(via("http://169.254.169.254/latest/meta-data/iam")),
      "blocked http://169.254.169.254/latest/meta-data/iam: 169.254.169.254 is link-local (cloud metadata)",
    );
    expectConnectionsOnlyTo(pub.port);
  });

  it.each([
    ["127.0.0.1", (p: number) => `http://127.0.0.1:${p}/`],
    ["IPv4-mapped", (p: number) => `http://[::ffff:127.0.0.1]:${p}/`],
    ["decimal", (p: number) => `http://2130706433:${p}/`],
    ["a name resolving to loopback", (p: number) => `http://evil.test:${p}/`],
    ["localhost", (p: number) => `http://localhost:${p}/`],
  ])("(c) blocks a redirect to a non-allow-listed loopback server (%s); it receives nothing", async (_name, to) => {
    for (const status of [301, 302, 303, 307, 308]) {
      await expectBlocked(guarded()(via(to(target.port), status)), "blocked http://", "loopback");
    }
    expectTargetUntouched();
    expectConnectionsOnlyTo(pub.port);
  });

  it("blocks OAuth metadata that points at loopback", async () => {
    const fetch = guarded();
    const metadata = (await (await fetch(`http://public.test:${pub.port}/.well-known/oauth-authorization-server`)).json()) as Record<
      string,
      string
    >;
    expect(() => assertHttpsUnlessLoopback(metadata.authorization_endpoint)).toThrow(UnsafeUrlError);
    await expectBlocked(
      fetch(metadata.token_endpoint, { method: "POST", body: "grant_type=authorization_code&code=secret-code" }),
      `blocked http://127.0.0.1:${target.port}/token: 127.0.0.1 is loopback`,
    );
    await expectBlocked(fetch(metadata.registration_endpoint, { method: "POST", body: "{}" }), "loopback");
    expectTargetUntouched();
    expectConnectionsOnlyTo(pub.port);
  });

  it("follows allowed hops with the method and body rules of 301/302/303 vs 307/308", async () => {
    const fetch = guarded();
    const echo = `http://public.test:${pub.port}/echo`;
    const post = (status: number) =>
      fetch(via(echo, status), { method: "POST", body: "payload", headers: { "content-type": "text/plain" } }).then((r) => r.json());
    for (const status of [301, 302, 303]) {
      expect(await post(status)).toMatchObject({ method: "GET", body: "", contentType: null });
    }
    for (const status of [307, 308]) {
      expect(await post(status)).toMatchObject({ method: "POST", body: "payload", contentType: "text/plain" });
    }
    const put303 = await fetch(via(echo, 303), { method: "PUT", body: "x" }).then((r) => r.json());
    expect(put303).toMatchObject({ method: "GET", body: "" });
    const put302 = await fetch(via(echo, 302), { method: "PUT", body: "x" }).then((r) => r.json());
    expect(put302).toMatchObject({ method: "PUT", body: "x" });
  });

  it("refuses to resend a streamed body on 307", async () => {
    const body = new ReadableStream({
      start: (c) => {
        c.enqueue(new TextEncoder().encode("chunk"));
        c.close();
      },
    });
    const error = await guarded()(via(`http://public.test:${pub.port}/echo`, 307), {
      method: "POST",
      body,
      duplex: "half",
    } as RequestInit).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetError);
    expect((error as NetError).code).toBe("redirect_failed");
  });

  it("strips Authorization and Cookie on a cross-origin hop, keeps them same-origin", async () => {
    const fetch = guarded();
    const headers = { authorization: "Bearer token-for-public", cookie: "s=1" };
    const same = await fetch(via(`http://public.test:${pub.port}/echo`), { headers }).then((r) => r.json());
    expect(same).toMatchObject({ authorization: "Bearer token-for-public", cookie: "s=1" });
    const cross = await fetch(via(`http://other.test:${other.port}/`), { headers }).then((r) => r.json());
    expect(cross).toMatchObject({ authorization: null, cookie: null });
  });

  it("(g) stops after maxRedirects", async () => {
    const fetch = guarded({ maxRedirects: 3 });
    expect(await (await fetch(`http://public.test:${pub.port}/loop/0?stop=3`)).text()).toBe("done after 3");
    const error = await fetch(`http://public.test:${pub.port}/loop/0?stop=4`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetError);
    expect((error as NetError).code).toBe("too_many_redirects");
    const defaults = await guarded()(`http://public.test:${pub.port}/loop/0`).catch((e: unknown) => e);
    expect((defaults as NetError).message).toMatch(/more than 5/);
  });

  it("returns the 3xx itself for redirect: manual and fails for redirect: error", async () => {
    const fetch = guarded();
    const manual = await fetch(via(`${target.url}/`), { redirect: "manual" });
    expect(manual.status).toBe(302);
    expect(manual.headers.get("location")).toBe(`${target.url}/`);
    await expect(fetch(via(`${target.url}/`), { redirect: "error" })).rejects.toMatchObject({ code: "redirect_failed" });
    expectTargetUntouched();
  });
});

describe("(e) DNS rebinding", () => {
  let pinned: CountingServer;
  let rebound: CountingServer;

  beforeAll(async () => {
    // The same port on two loopback addresses: a connection that re-resolved would land on `rebound`.
    pinned = await startCountingServer((_req, res) => res.end("pinned"));
    rebound = await startCountingServer((_req, res) => res.end("rebound"), { host: "127.0.0.2", port: pinned.port });
  });
  afterAll(async () => {
    await Promise.all([pinned.close(), rebound.close()]);
  });

  it("connects to exactly the checked address and never resolves twice", async () => {
    // Only 127.0.0.1 is allowed, by address. The name flips to 127.0.0.2 after the first answer.
    let answers = 0;
    const flipping: Resolver = async (hostname) => {
      expect(hostname).toBe("rebind.test");
      answers++;
      return [{ address: answers === 1 ? "127.0.0.1" : "127.0.0.2", family: 4 }];
    };
    const fetch = guarded({ allowedHosts: parseAllowedHosts("127.0.0.1/32"), resolver: flipping });
    const response = await fetch(`http://rebind.test:${pinned.port}/`);
    expect(await response.text()).toBe("pinned");
    // A connector that resolved again (through this resolver or real DNS) would fail here.
    expect(answers).toBe(1);
    expect(rebound.connections).toBe(0);
    expect(connections.records.map((r) => r.remoteAddress)).toEqual(["127.0.0.1"]);

    // The next request is checked afresh: the flipped answer is blocked, and the pooled
    // connection to 127.0.0.1 is not reused for it.
    await expectBlocked(fetch(`http://rebind.test:${pinned.port}/`), "rebind.test resolves to 127.0.0.2, which is loopback");
    expect(answers).toBe(2);
    expect(rebound.connections).toBe(0);
    expect(pinned.requests).toBe(1);
  });

  it("a pinned agent refuses to connect any other host, even an IP literal", async () => {
    const agent = new Agent({ connect: pinnedConnector("pinned.test", [parseIpLiteral("127.0.0.1")!]) });
    try {
      await expect(undiciFetch(`${target.url}/`, { dispatcher: agent })).rejects.toThrow();
      await expect(undiciFetch(`http://elsewhere.test:${target.port}/`, { dispatcher: agent })).rejects.toThrow();
      expectTargetUntouched();
      expect(await (await undiciFetch(`http://pinned.test:${pinned.port}/`, { dispatcher: agent })).text()).toBe("pinned");
    } finally {
      await agent.close();
    }
  });

  it("reuses pooled connections only for the same checked address set", async () => {
    names.set("stable.test", ["127.0.0.1"]);
    const fetch = guarded({ allowedHosts: parseAllowedHosts("127.0.0.1") });
    for (let i = 0; i < 3; i++) {
      expect(await (await fetch(`http://stable.test:${pinned.port}/`)).text()).toBe("pinned");
      // undici returns a socket to its pool just after the body ends; give it that moment.
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(connections.records.filter((r) => r.port === String(pinned.port))).toHaveLength(1);
  });
});

describe("(f) streaming", () => {
  it("passes an SSE body through as it arrives", async () => {
    const fetch = guarded();
    const response = await fetch(`http://public.test:${pub.port}/sse`, { headers: { accept: "text/event-stream" } });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    const first = await reader.read();
    expect(first.value).toBe("data: one\n\n");
    // Closing the guarded fetch must let an open stream finish (graceful), not cut it.
    const closing = fetch.close();
    sseRelease();
    let rest = "";
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += chunk.value;
    expect(rest).toBe("data: two\n\ndata: three\n\n");
    await closing;
  });
});
