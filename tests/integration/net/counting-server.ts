/**
 * Real HTTP servers on 127.0.0.0/8 that count every TCP connection and request they receive, so
 * a test can prove that a blocked request never reached them.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { subscribe, unsubscribe } from "node:diagnostics_channel";

/** A listening server and its counters. */
export interface CountingServer {
  server: Server;
  host: string;
  port: number;
  /** Base URL by address, e.g. http://127.0.0.1:41234 */
  url: string;
  connections: number;
  requests: number;
  close(): Promise<void>;
}

/** Start a counting server on `host` (default 127.0.0.1) and `port` (default: random). */
export async function startCountingServer(
  handler: (req: IncomingMessage, res: ServerResponse, body: string) => void,
  options: { host?: string; port?: number } = {},
): Promise<CountingServer> {
  const host = options.host ?? "127.0.0.1";
  const state = { connections: 0, requests: 0 };
  const server = createServer((req, res) => {
    state.requests++;
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => handler(req, res, body));
  });
  server.on("connection", () => state.connections++);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    host,
    port,
    url: `http://${host}:${port}`,
    get connections() {
      return state.connections;
    },
    get requests() {
      return state.requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  } as CountingServer;
}

/** Every connection undici opened while recording: the host it was asked for and the peer address. */
export interface ConnectRecord {
  hostname: string;
  port: string;
  remoteAddress?: string;
}

/**
 * Record undici's own diagnostics ("undici:client:beforeConnect" / "connected"): an outside
 * observation of every socket the guarded fetch opens, without stubbing anything.
 */
export function recordConnections(): { records: ConnectRecord[]; stop(): void } {
  const records: ConnectRecord[] = [];
  const before = (message: unknown) => {
    const { connectParams } = message as { connectParams: { hostname: string; port: string } };
    records.push({ hostname: connectParams.hostname, port: String(connectParams.port) });
  };
  const connected = (message: unknown) => {
    const { connectParams, socket } = message as { connectParams: { hostname: string; port: string }; socket: { remoteAddress?: string } };
    const record = [...records]
      .reverse()
      .find((r) => r.hostname === connectParams.hostname && r.port === String(connectParams.port) && !r.remoteAddress);
    if (record) record.remoteAddress = socket.remoteAddress;
  };
  subscribe("undici:client:beforeConnect", before);
  subscribe("undici:client:connected", connected);
  return {
    records,
    stop() {
      unsubscribe("undici:client:beforeConnect", before);
      unsubscribe("undici:client:connected", connected);
    },
  };
}
