#!/usr/bin/env node
// The app's HTTP server (started by scripts/start.mjs, after the build and the preflight): Next's
// request handler behind two checks, both installed by instrumentation.ts (which Next runs with its
// first request). The front door (lib/lane/front-door.ts) stamps the client address from the socket
// and refuses a body declared over the cap; a request the direct lane (lib/lane/direct-lane.ts)
// claims is then served without Next's router; every other request goes to Next as `next start`
// would pass it. PORT and HOSTNAME as for `next start`.
import { randomBytes } from "node:crypto";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";

process.env.NODE_ENV = "production";
const { default: next } = await import("next");

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const port = Number(process.env.PORT || 3000);
const hostname = process.env.HOSTNAME || undefined;
const FRONT_DOOR = Symbol.for("switchboard.frontDoor");
const DIRECT_LANE = Symbol.for("switchboard.directLane");
const SHUTDOWN_HANDLERS = Symbol.for("switchboard.shutdownHandlers");
const STOP_ACCEPTING = Symbol.for("switchboard.stopAccepting");

// Next's own URL for a request (where a middleware rewrite counts as internal) is built from this
// name, while the URL proxy.ts sees has any loopback address rewritten to `localhost`: with
// HOSTNAME=127.0.0.1 the two differed, Next took proxy.ts's `/api/w/<slug>/…` rewrite for an external
// one and fetched it from itself, and the second pass dropped the path's workspace (the request then
// acted on the caller's personal workspace). The listening address is HOSTNAME whatever this says.
const loopback = hostname !== undefined && /^(127\.\d+\.\d+\.\d+|::1|\[::1\])$/.test(hostname);
const app = next({ dev: false, dir: root, hostname: loopback ? "localhost" : (hostname ?? "localhost"), port });
const handle = app.getRequestHandler();
await app.prepare();

// The header the front door stamps the client address in (lib/security/client-address.ts).
const CLIENT_ADDRESS_HEADER = "x-switchboard-client-address";

// Next runs instrumentation.ts, which installs the front door, with its first request. Until then no
// client-sent value of the stamp may pass: the throttles count such a request as address "unknown".
function dropClientStamp(req) {
  delete req.headers[CLIENT_ADDRESS_HEADER];
  const raw = req.rawHeaders;
  for (let i = raw.length - 2; i >= 0; i -= 2) if (raw[i].toLowerCase() === CLIENT_ADDRESS_HEADER) raw.splice(i, 2);
}

// Which process answered (for operators and tests behind a load balancer): SWITCHBOARD_REPLICA_ID,
// else a random id per start, printed below; never the host name or the process id.
const REPLICA = process.env.SWITCHBOARD_REPLICA_ID?.trim() || randomBytes(4).toString("hex");
// The app's code reads it from here (lib/cluster/replicas.ts): one id for the header and the registry.
process.env.SWITCHBOARD_REPLICA_ID = REPLICA;
console.log(`switchboard: replica ${REPLICA}`);

const server = http.createServer((req, res) => {
  res.setHeader("X-Switchboard-Replica", REPLICA);
  const frontDoor = globalThis[FRONT_DOOR];
  if (!frontDoor) dropClientStamp(req);
  else if (frontDoor(req, res)) return;
  const lane = globalThis[DIRECT_LANE];
  if (lane?.(req, res)) return;
  // Next answers its own failures with a 500 page (and logs them); anything still thrown ends this
  // response only. Named by path, without the query or the message: either may carry a secret.
  handle(req, res).catch((error) => {
    console.error(`switchboard: ${req.method} ${(req.url ?? "").split("?")[0]} failed (${error?.name ?? "error"})`);
    if (!res.headersSent) res.writeHead(500).end();
    else res.destroy();
  });
});
// As `next start`: keep idle keep-alive sockets a little longer than common proxies do.
server.keepAliveTimeout = 65_000;
// A crowd arriving at once (a thousand browsers after a deploy) overflows Node's default accept
// queue of 511, and every dropped connect waits for the client's SYN retry (1, 3, 7, 15 s …);
// the kernel still caps the queue at net.core.somaxconn.
server.listen({ port, host: hostname, backlog: 4096 }, () =>
  console.log(`switchboard: ready on ${hostname ?? "every interface"}, port ${port}`),
);

// With an engine running, lib/shutdown.ts owns the stop: readiness 503 at once, then after the grace
// (SWITCHBOARD_SHUTDOWN_GRACE_SECONDS) it stops taking connections through this hook, closes the
// MCP connections and exits. Without one (no request reached the app yet), stop and exit now.
// The hook resolves once every request under way has been answered (idle keep-alive sockets close at
// once), or after `boundMs`: a running tool call finishes before the MCP connections close; a stream
// that never ends on its own (an event stream, a running answer) is cut at the bound.
globalThis[STOP_ACCEPTING] = (boundMs) =>
  new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
    setTimeout(resolve, boundMs).unref();
  });
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, () => {
    if (globalThis[SHUTDOWN_HANDLERS]) return;
    server.close();
    process.exit(128 + (signal === "SIGINT" ? 2 : 15));
  });
}
