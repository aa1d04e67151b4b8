/**
 * The client address the throttles count: the socket's peer unless it is a trusted proxy, then the
 * right-most untrusted X-Forwarded-For hop; and the front door that stamps it on every request (a
 * header the client sent under that name is replaced in both header views) and refuses a body
 * declared over the cap before reading it.
 */
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFrontDoor } from "@/lib/lane/front-door";
import {
  CLIENT_ADDRESS_HEADER,
  normaliseAddress,
  parseTrustedProxies,
  resolveClientAddress,
  stampedClientAddress,
  TrustedProxiesError,
} from "@/lib/security/client-address";

describe("resolveClientAddress", () => {
  const trusted = parseTrustedProxies("10.0.0.0/8, 192.0.2.7, ::1");
  it.each([
    ["no trusted proxy: the peer, whatever the header says", "203.0.113.9", "198.51.100.1", "203.0.113.9"],
    ["an untrusted peer's header is ignored", "198.51.100.50", "10.0.0.1, 198.51.100.1", "198.51.100.50"],
    ["a trusted peer: the right-most hop it reported", "10.1.2.3", "198.51.100.1", "198.51.100.1"],
    ["a client's own hops left of the proxy's are not believed", "10.1.2.3", "1.1.1.1, 2.2.2.2, 198.51.100.1", "198.51.100.1"],
    ["trusted hops are skipped from the right", "192.0.2.7", "198.51.100.1, 10.9.9.9, 10.0.0.2", "198.51.100.1"],
    ["every hop trusted: the left-most", "10.1.2.3", "10.0.0.5, 10.0.0.6", "10.0.0.5"],
    ["a trusted peer with no header: the peer", "10.1.2.3", undefined, "10.1.2.3"],
    ["IPv4-mapped IPv6 peer", "::ffff:10.1.2.3", "198.51.100.1", "198.51.100.1"],
    ["IPv6 loopback peer", "::1", "2001:db8::1", "2001:db8::1"],
    ["hops with ports and brackets", "10.1.2.3", "[2001:db8::2]:4711, 198.51.100.3:80", "198.51.100.3"],
    ["a garbage hop is the right-most untrusted one", "10.1.2.3", "198.51.100.1, not-an-ip", "not-an-ip"],
  ])("%s", (_name, peer, forwarded, expected) => {
    expect(resolveClientAddress(peer, forwarded, trusted)).toBe(expected);
  });

  it("reads several X-Forwarded-For headers in order", () => {
    expect(resolveClientAddress("10.0.0.1", ["198.51.100.1", "198.51.100.2, 10.0.0.9"], trusted)).toBe("198.51.100.2");
  });

  it("with no trusted proxies configured, always the peer", () => {
    expect(resolveClientAddress("127.0.0.1", "198.51.100.1", parseTrustedProxies(undefined))).toBe("127.0.0.1");
    expect(resolveClientAddress(undefined, "198.51.100.1", parseTrustedProxies(""))).toBe("unknown");
  });

  it("normalises the forms an address takes", () => {
    expect(normaliseAddress(" ::FFFF:192.0.2.1 ")).toBe("192.0.2.1");
    expect(normaliseAddress("fe80::1%eth0")).toBe("fe80::1");
    expect(normaliseAddress("[::1]")).toBe("::1");
  });

  it.each(["10.0.0.0/33", "example.com", "10.0.0.1/", "10.0.0.0/8/1", "::1/129"])("refuses %s naming the variable", (entry) => {
    expect(() => parseTrustedProxies(`127.0.0.1, ${entry}`)).toThrow(TrustedProxiesError);
    expect(() => parseTrustedProxies(entry)).toThrow(/SWITCHBOARD_TRUSTED_PROXIES/);
  });
});

describe("the front door on a real HTTP server", () => {
  const seen: { headers: string | string[] | undefined; raw: string[] }[] = [];
  let bodyBytesRead = 0;
  let trustLoopback = false;
  const doors = {
    plain: createFrontDoor({ trusted: parseTrustedProxies(""), maxBodyBytes: 1000 }),
    proxied: createFrontDoor({ trusted: parseTrustedProxies("127.0.0.1,::1"), maxBodyBytes: 1000 }),
  };
  const server = http.createServer((req, res) => {
    if ((trustLoopback ? doors.proxied : doors.plain)(req, res)) return;
    seen.push({ headers: req.headers[CLIENT_ADDRESS_HEADER], raw: [...req.rawHeaders] });
    req.on("data", (chunk: Buffer) => {
      bodyBytesRead += chunk.length;
    });
    req.on("end", () => res.writeHead(200).end(stampedClientAddress(req.headers as Record<string, string>)));
  });
  let port = 0;

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function get(headers: Record<string, string>): Promise<string> {
    const response = await fetch(`http://127.0.0.1:${port}/`, { headers });
    return response.text();
  }

  it("stamps the socket's address; a spoofed X-Forwarded-For or stamp header changes nothing", async () => {
    trustLoopback = false;
    expect(await get({ "x-forwarded-for": "198.51.100.1" })).toBe("127.0.0.1");
    seen.length = 0;
    expect(await get({ [CLIENT_ADDRESS_HEADER]: "198.51.100.2", "x-forwarded-for": "198.51.100.3" })).toBe("127.0.0.1");
    // Both views carry the stamp only: Next reads `headers`, the direct lane `rawHeaders`.
    expect(seen[0].headers).toBe("127.0.0.1");
    const stamps = seen[0].raw.filter((_, i) => i % 2 === 0 && seen[0].raw[i].toLowerCase() === CLIENT_ADDRESS_HEADER);
    expect(stamps).toHaveLength(1);
    expect(seen[0].raw[seen[0].raw.indexOf(CLIENT_ADDRESS_HEADER) + 1]).toBe("127.0.0.1");
  });

  it("behind a trusted proxy, the hop the proxy reported", async () => {
    trustLoopback = true;
    expect(await get({ "x-forwarded-for": "6.6.6.6, 198.51.100.7" })).toBe("198.51.100.7");
    trustLoopback = false;
  });

  it("refuses a body declared over the cap with 413 without reading it, and closes the connection", async () => {
    bodyBytesRead = 0;
    const socket = net.connect(port, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    let answer = "";
    socket.on("data", (chunk) => {
      answer += chunk.toString();
    });
    const closed = new Promise((resolve) => socket.once("close", resolve));
    // Declares 50 MB and sends a first kilobyte: the answer comes without the rest.
    socket.write(
      `POST /api/anything HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50000000\r\n\r\n${"x".repeat(1024)}`,
    );
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
    expect(answer).toContain('"code":"request.too_large"');
    expect(answer.toLowerCase()).toContain("connection: close");
    expect(answer.toLowerCase()).toContain("x-content-type-options: nosniff");
    expect(bodyBytesRead).toBe(0);
  });

  it("lets a body within the cap through", async () => {
    const response = await fetch(`http://127.0.0.1:${port}/`, { method: "POST", body: "x".repeat(1000) });
    expect(response.status).toBe(200);
  });
});
