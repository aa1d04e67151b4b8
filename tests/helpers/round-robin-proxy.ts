/**
 * A small load balancer for the cluster tests and the cluster bench, standing where nginx would: it
 * sends each request to the next upstream in turn, streams both ways unbuffered (the chat and event
 * streams), adds `X-Forwarded-For`, and, like a load balancer, asks each upstream's readiness
 * (`GET /api/health/ready`) every `checkMs` and sends nothing to one that answers otherwise. A
 * request whose connection is refused before anything was sent goes to the next upstream (nginx's
 * `proxy_next_upstream error`); once sent, a failure is the client's to see. A test may pin
 * requests to one upstream with `pin`.
 */
import http from "node:http";
import type net from "node:net";

/** One upstream: its base URL's host and port, and what the proxy knows of it. */
export interface Upstream {
  name: string;
  port: number;
  /** Whether its last readiness check answered 200. */
  ready: boolean;
}

/** The running proxy. */
export interface RoundRobinProxy {
  port: number;
  base: string;
  upstreams: Upstream[];
  /** Requests sent to each upstream, by name. */
  hits: Map<string, number>;
  /** Why each request the client saw fail failed (upstream, method, path, error), oldest first. */
  failures: string[];
  /** Route requests for which `rule` returns an upstream's name to it (null: back to round robin). */
  pin(rule: ((req: http.IncomingMessage) => string | undefined) | null): void;
  /** Check every upstream's readiness now. */
  check(): Promise<void>;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te", "trailer"]);

/** Start a proxy on loopback (`options.port`, or a free one) in front of `upstreams` (name → port). */
export async function startRoundRobinProxy(
  upstreams: { name: string; port: number }[],
  options: { checkMs?: number; port?: number } = {},
): Promise<RoundRobinProxy> {
  const state: Upstream[] = upstreams.map((u) => ({ ...u, ready: true }));
  const hits = new Map<string, number>();
  const failures: string[] = [];
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  let next = 0;
  let pinned: ((req: http.IncomingMessage) => string | undefined) | null = null;

  const check = async () => {
    await Promise.all(
      state.map(async (upstream) => {
        try {
          const response = await fetch(`http://127.0.0.1:${upstream.port}/api/health/ready`, { signal: AbortSignal.timeout(2_000) });
          upstream.ready = response.status === 200;
          await response.body?.cancel();
        } catch {
          upstream.ready = false;
        }
      }),
    );
  };

  /** The upstreams to try, in order: the pinned one, or the ready ones starting at the next in turn. */
  const order = (req: http.IncomingMessage): Upstream[] => {
    const name = pinned?.(req);
    const chosen = name ? state.find((u) => u.name === name) : undefined;
    if (chosen) return [chosen];
    const ready = state.filter((u) => u.ready);
    const pool = ready.length ? ready : state;
    const start = next++ % pool.length;
    return [...pool.slice(start), ...pool.slice(0, start)];
  };

  const server = http.createServer((req, res) => {
    const candidates = order(req);
    const forwarded = [req.headers["x-forwarded-for"], req.socket.remoteAddress].filter(Boolean).join(", ");
    const headers: http.OutgoingHttpHeaders = {};
    for (const [key, value] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(key)) headers[key] = value;
    headers["x-forwarded-for"] = forwarded;
    headers["x-forwarded-proto"] = "http";
    // The body is buffered only when a retry may need it again: requests are small (the app caps them).
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    const bodyDone = new Promise<void>((resolve) => req.on("end", resolve));
    const idempotent = req.method === "GET" || req.method === "HEAD";

    const attempt = (index: number) => {
      const upstream = candidates[index];
      if (!upstream) {
        if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
        res.end("no upstream could be reached");
        return;
      }
      let connected = false;
      const out = http.request(
        { host: "127.0.0.1", port: upstream.port, method: req.method, path: req.url, headers, agent },
        (upstreamRes) => {
          hits.set(upstream.name, (hits.get(upstream.name) ?? 0) + 1);
          const responseHeaders: http.OutgoingHttpHeaders = {};
          for (const [key, value] of Object.entries(upstreamRes.headers)) if (!HOP_BY_HOP.has(key)) responseHeaders[key] = value;
          res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.statusMessage, responseHeaders);
          res.flushHeaders();
          upstreamRes.on("data", (chunk) => res.write(chunk));
          upstreamRes.on("end", () => res.end());
          upstreamRes.on("error", (error: NodeJS.ErrnoException) => {
            failures.push(`${upstream.name} ${req.method} ${req.url}: response cut: ${error.message}`);
            res.destroy();
          });
        },
      );
      out.on("socket", (socket: net.Socket) => {
        if (!socket.connecting) connected = true;
        else socket.once("connect", () => (connected = true));
      });
      const fail = (error: NodeJS.ErrnoException) => {
        failures.push(
          `${upstream.name} ${req.method} ${req.url}: ${error.code ?? ""} ${error.message} (reused ${out.reusedSocket}, connected ${connected})`,
        );
        res.destroy();
      };
      out.on("error", (error: NodeJS.ErrnoException) => {
        if (res.headersSent) return fail(error);
        // Refused before anything was sent: the next upstream gets it. A kept-alive connection that
        // the upstream had already closed (it stopped, or was killed) fails as it is written to, so
        // the upstream never read the request: it goes again on a new connection, as Node's docs
        // advise for `reusedSocket`. A request the upstream may have read is the client's to see.
        if (!connected) {
          upstream.ready = false;
          attempt(index + 1);
        } else if (out.reusedSocket && (idempotent || error.code === "ECONNRESET" || error.code === "EPIPE")) {
          attempt(index + 1);
        } else fail(error);
      });
      res.on("close", () => {
        if (!res.writableFinished) out.destroy();
      });
      void bodyDone.then(() => out.end(Buffer.concat(chunks)));
    };
    attempt(0);
  });
  server.keepAliveTimeout = 5_000;

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  const timer = setInterval(() => void check(), options.checkMs ?? 500);
  timer.unref();
  return {
    port,
    base: `http://localhost:${port}`,
    upstreams: state,
    hits,
    failures,
    pin(rule) {
      pinned = rule;
    },
    check,
    async close() {
      clearInterval(timer);
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
