/**
 * The guarded fetch's streaming lane for MCP traffic (docs/performance.md#the-mcp-request-lane): one
 * request hop on Node's own HTTP client, judged by the same policy as every other request
 * (checkTarget) and connected only to the addresses that were checked. It answers with the status,
 * the headers and the body as Node's stream, which the engine reads without web streams: undici's
 * fetch with its web-stream bodies cost about as much CPU per MCP request as the rest of the
 * engine's work on it. Redirects are never followed here; the caller gets the 3xx (the MCP SDK
 * follows same-origin ones itself, and each hop comes back through here to be checked again).
 */
import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import { normalizeHostname } from "./address-policy";
import { isHopByHopHeader } from "./hop-headers";
import { parseIpLiteral } from "./ip-literal";
import { AgentCache, pinnedKey, pinnedLookup } from "./pinned-agent";
import { checkTarget, type CheckedTarget, type TargetCheckOptions } from "./target-check";

/** One request as the lane takes it: the body, when there is one, is a string sent whole. */
export interface NodeRequestInit {
  method: string;
  headers: Headers;
  body?: string;
  signal?: AbortSignal;
}

/** The answer: status line and headers, and the body still to be read from `body`. */
export interface NodeResponseHead {
  status: number;
  statusText: string;
  headers: Headers;
  body: IncomingMessage;
  /** The URL this answer came from (for redirect checks). */
  url: string;
}

/** A guarded request on Node's HTTP client; `close()` releases its pooled connections. */
export interface NodeRequester {
  (url: URL, init: NodeRequestInit): Promise<NodeResponseHead>;
  close(): void;
}

// Idle pooled connections are closed after this long (or sooner when the server's Keep-Alive says so).
const IDLE_SOCKET_MS = 4_000;
// Address literals whose verdict is kept; past this the memory starts over.
const MAX_LITERAL_VERDICTS = 64;

/**
 * A requester checking every hop with `check`. Without `check` it checks nothing and resolves names
 * as Node does: that is the engine's default for the command line and its own tests, where the
 * plain `fetch` is unguarded too; the web app always passes its policy (guardedFetchFromEnv).
 */
export function createNodeRequester(check?: TargetCheckOptions): NodeRequester {
  const agents = new PinnedNodeAgents();
  // An address literal's verdict depends on nothing but the URL's scheme and host: judged once.
  // A host name is resolved and judged on every request.
  const literalVerdicts = new Map<string, CheckedTarget>();
  const checked = async (url: URL, options: TargetCheckOptions): Promise<CheckedTarget> => {
    const literal = !url.username && !url.password && parseIpLiteral(normalizeHostname(url.hostname)) !== null;
    const key = `${url.protocol}//${url.host}`;
    const known = literal ? literalVerdicts.get(key) : undefined;
    if (known) return known;
    const target = await checkTarget(url, options);
    if (literal) {
      if (literalVerdicts.size >= MAX_LITERAL_VERDICTS) literalVerdicts.clear();
      literalVerdicts.set(key, target);
    }
    return target;
  };
  const request = async (url: URL, init: NodeRequestInit): Promise<NodeResponseHead> => {
    init.signal?.throwIfAborted();
    if (!check) return send(url, normalizeHostname(url.hostname), agents.unpinned(url.protocol), init);
    const target = await checked(url, check);
    init.signal?.throwIfAborted();
    return send(url, target.hostname, agents.agentFor(target, url.protocol), init);
  };
  return Object.assign(request, { close: () => agents.close() });
}

function send(url: URL, hostname: string, agent: http.Agent, init: NodeRequestInit): Promise<NodeResponseHead> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    // Host, Content-Length and the other hop-by-hop headers come from the URL and the body only.
    init.headers.forEach((value, name) => {
      if (!isHopByHopHeader(name)) headers[name] = value;
    });
    const module = url.protocol === "https:" ? https : http;
    const req = module.request({
      protocol: url.protocol,
      hostname,
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method: init.method,
      headers,
      agent,
      // TLS checks the certificate against the name the user gave, not the pinned address.
      ...(url.protocol === "https:" ? { servername: hostname } : {}),
    });
    const signal = init.signal;
    const onAbort = () => req.destroy(signal?.reason instanceof Error ? signal.reason : new Error("the request was aborted"));
    signal?.addEventListener("abort", onAbort, { once: true });
    req.once("error", (error) => {
      signal?.removeEventListener("abort", onAbort);
      reject(error);
    });
    req.once("response", (res) => {
      // The body can still be aborted while it streams; the listener leaves with the connection.
      res.once("close", () => signal?.removeEventListener("abort", onAbort));
      const responseHeaders = new Headers();
      const raw = res.rawHeaders;
      for (let i = 0; i < raw.length; i += 2) responseHeaders.append(raw[i], raw[i + 1]);
      resolve({ status: res.statusCode ?? 502, statusText: res.statusMessage ?? "", headers: responseHeaders, body: res, url: url.href });
    });
    // A string body goes out in the same write as the request head.
    req.end(init.body);
  });
}

/**
 * Keep-alive agents keyed by scheme, host name and the exact checked addresses, each resolving
 * only to those addresses: a request reuses a pooled connection only when its fresh check approved
 * the same addresses (no DNS-rebinding gap). An unchecked requester has one agent per scheme.
 */
class PinnedNodeAgents {
  private readonly agents = new AgentCache<http.Agent>(retire);

  /** The agent connecting `target.hostname` only to `target.addresses`. */
  agentFor(target: CheckedTarget, protocol: string): http.Agent {
    return this.agents.get(`${protocol}\n${pinnedKey(target)}`, () => newAgent(protocol, pinnedLookup(target.hostname, target.addresses)));
  }

  /** The agent of an unchecked requester: names resolve as Node resolves them. */
  unpinned(protocol: string): http.Agent {
    return this.agents.get(protocol, () => newAgent(protocol));
  }

  close(): void {
    for (const agent of this.agents.clear()) retire(agent);
  }
}

function newAgent(protocol: string, lookup?: ReturnType<typeof pinnedLookup>): http.Agent {
  // Every socket a burst opened stays for the next one: Node keeps at most 256 idle per host by
  // default, and with a crowd's calls in flight (1,000 users, one host) the surplus was closed as
  // each call ended and connected again for the next. Idle ones still close after IDLE_SOCKET_MS,
  // so the pool never outgrows the calls in flight of the last few seconds.
  const options = {
    keepAlive: true,
    timeout: IDLE_SOCKET_MS,
    scheduling: "lifo" as const,
    maxFreeSockets: Number.POSITIVE_INFINITY,
    ...(lookup ? { lookup } : {}),
  };
  return protocol === "https:" ? new https.Agent(options) : new http.Agent(options);
}

// Idle connections close now; busy ones (a streaming answer) finish and then close.
function retire(agent: http.Agent): void {
  for (const sockets of Object.values(agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
  agent.on("free", (socket) => socket.destroy());
}
