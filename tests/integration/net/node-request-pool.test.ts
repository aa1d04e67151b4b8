/**
 * The request lane's kept-alive connections in a crowd (lib/net/node-request.ts): with more
 * requests in flight than Node's default of 256 idle sockets kept per host, the surplus used to be
 * closed as each request ended and opened again for the next burst, a TCP connect (and a socket,
 * a parser) per call that only a crowd pays. Counted at the server, not timed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeRequester, type NodeRequester, parseAllowedHosts, systemResolver } from "@/lib/net";
import { type CountingServer, startCountingServer } from "./counting-server";

const IN_FLIGHT = 400; // above Node's default maxFreeSockets (256)
let server: CountingServer;
// Every request is held until all of the round have arrived, so they are in flight at once.
let waiting: (() => void)[] = [];

beforeAll(async () => {
  server = await startCountingServer((_req, res) => {
    waiting.push(() => res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}'));
    if (waiting.length === IN_FLIGHT) {
      for (const answer of waiting) answer();
      waiting = [];
    }
  });
});

afterAll(async () => {
  await server.close();
});

async function round(request: NodeRequester): Promise<void> {
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      const answer = await request(new URL(`${server.url}/mcp`), { method: "POST", headers: new Headers(), body: "{}" });
      for await (const _chunk of answer.body) {
        // read to the end: the socket goes back to the pool
      }
    }),
  );
  // The sockets are handed back to the agent once their responses have ended.
  await new Promise((resolve) => setImmediate(resolve));
}

describe("the request lane with more requests in flight than Node keeps idle sockets", () => {
  for (const [label, make] of [
    ["unguarded (the engine's default)", () => createNodeRequester()],
    [
      "guarded (the app's, pinned to the checked addresses)",
      () => createNodeRequester({ allowedHosts: parseAllowedHosts("127.0.0.1"), allowHttp: "always", resolver: systemResolver }),
    ],
  ] as const) {
    it(`reuses every connection of the first burst for the second: ${label}`, async () => {
      const request = make();
      const before = server.connections;
      await round(request);
      expect(server.connections - before).toBe(IN_FLIGHT);
      await round(request);
      await round(request);
      expect(server.connections - before).toBe(IN_FLIGHT);
      request.close();
    });
  }
});
