/**
 * The relay's end on the replica a call landed on, for a stdio server whose sandbox runs on another
 * replica (lib/runtime/sandbox-placement.ts): an MCP transport whose every request is one POST over
 * the internal hop (lib/runtime/internal-hop.ts) to the holder's `HOP_PATH`, answered by the holder's
 * own connection to the server (lib/use-cases/sandbox-hop.ts) as newline-delimited JSON-RPC: the
 * progress of a tool call as it comes, then the answer. Cancelling a request aborts its POST (the
 * holder cancels the call). Nothing else crosses: the server's own requests (elicitation, sampling,
 * roots) are answered by the holder's connection, and its notifications stay there.
 *
 * Two failures are told apart, because only one may be retried: a holder that let go of the server
 * (409) or that cannot be reached at all (connection refused) never ran the request, so once the
 * lease has moved (`settle`) the request fails with `session_expired` and the engine places the
 * server again and runs it once more (lib/mcp/managed-server.ts `run`); anything after the request
 * reached the holder fails as it is, never run twice.
 */
import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import { StringDecoder } from "node:string_decoder";
import type { JSONRPCMessage, JSONRPCRequest, Transport } from "@modelcontextprotocol/client";
import { EngineError, type ErrorCode } from "../mcp/errors";
import { HOP_HEADER, type HopRequest } from "./internal-hop";
import { SANDBOX_LEASE_MS } from "./sandbox-leases";

/** Where the holder serves the relays. */
export const HOP_PATH = "/api/internal/sandbox";
/** Most bytes of one answer read from the holder (its own connection caps a message at 16 MiB by default). */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;
/** Network failures by which the request surely never reached the holder. */
const NOT_REACHED = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT"]);

/** What one relayed request carries besides the JSON-RPC message. */
export interface RelayedFor {
  userId: string;
  workspaceId: string;
  serverId: string;
  serverName: string;
}

/** A relay's settings. */
export interface RelayOptions {
  /** The replica holding the server's lease, and where it is reached. */
  holder: { replica: string; url: string };
  who: RelayedFor;
  /** The hop header for a request to replica `to`. */
  sign(to: string, request: HopRequest): string;
  /**
   * Wait, bounded, for the holder to let go after it could not be reached: "moved" once it no
   * longer holds the lease, "held" when it still does at the end.
   */
  settle(signal: AbortSignal): Promise<"moved" | "held">;
}

/** The body of a relayed request. */
export interface RelayBody extends Omit<RelayedFor, "serverName"> {
  message: JSONRPCRequest;
}

/** A transport forwarding each request to the replica that runs the server. */
export class RelayTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport["onmessage"];
  private readonly inFlight = new Map<string | number, AbortController>();
  private closed = false;

  constructor(private readonly options: RelayOptions) {}

  /** The replica the requests go to. */
  get holder(): string {
    return this.options.holder.replica;
  }

  async start(): Promise<void> {}

  /** A request is forwarded; a cancellation aborts its POST; any other message has nothing to reach. */
  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new EngineError("connection_closed", `server "${this.options.who.serverName}": the relay is closed`);
    if ("method" in message && "id" in message && message.id !== undefined) return await this.forward(message as JSONRPCRequest);
    if ("method" in message && message.method === "notifications/cancelled") {
      const requestId = (message.params as { requestId?: string | number } | undefined)?.requestId;
      if (requestId !== undefined) this.inFlight.get(requestId)?.abort();
    }
    // `notifications/initialized` and the like: the holder's connection did its own handshake.
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const abort of this.inFlight.values()) abort.abort();
    this.inFlight.clear();
    this.onclose?.();
  }

  private async forward(request: JSONRPCRequest): Promise<void> {
    const abort = new AbortController();
    this.inFlight.set(request.id, abort);
    try {
      const response = await this.post(request, abort.signal);
      await this.answer(request, response);
    } finally {
      this.inFlight.delete(request.id);
    }
  }

  /** POST the request to the holder: its answer's head, or the failure (retried there or here, as the class says). */
  private async post(request: JSONRPCRequest, signal: AbortSignal): Promise<IncomingMessage> {
    const { holder, who } = this.options;
    const { serverName, ...ids } = who;
    const body = JSON.stringify({ ...ids, message: request } satisfies RelayBody);
    const send = () => {
      // Signed per attempt: a proof is accepted once.
      const proof = this.options.sign(holder.replica, { method: "POST", path: HOP_PATH, body });
      return postTo(`${holder.url}${HOP_PATH}`, { "content-type": "application/json", [HOP_HEADER]: proof }, body, signal);
    };
    try {
      try {
        return await send();
      } catch (error) {
        // A kept-alive socket the holder had just closed: the request never reached it; once more, on a new one.
        if (!(error as { reusedSocket?: boolean }).reusedSocket || networkCode(error) !== "ECONNRESET") throw error;
        return await send();
      }
    } catch (error) {
      if (signal.aborted) throw new EngineError("cancelled", `server "${serverName}": cancelled`, { cause: error });
      const code = networkCode(error);
      const where = `replica ${holder.replica} (${holder.url}), which runs this server's sandbox`;
      if (code && NOT_REACHED.has(code)) {
        // Never reached: once the holder has let go (it stopped, or died and its lease ran out), run it here.
        if ((await this.options.settle(signal)) === "moved") throw moved(serverName);
        throw new EngineError(
          "unreachable",
          `server "${serverName}": ${where}, cannot be reached (${code}); its sandbox starts on another replica once that one lets go (within ${SANDBOX_LEASE_MS / 1000} s of it stopping); check SWITCHBOARD_INTERNAL_URL if it runs`,
          { cause: error },
        );
      }
      throw new EngineError("unreachable", `server "${serverName}": the request to ${where}, broke off (${code ?? "no answer"})`, {
        cause: error,
      });
    }
  }

  /** Deliver the holder's answer (and the progress before it), or throw the failure it reports. */
  private async answer(request: JSONRPCRequest, response: IncomingMessage): Promise<void> {
    const { holder, who } = this.options;
    const name = `server "${who.serverName}"`;
    const status = response.statusCode ?? 0;
    if (status === 409) {
      response.resume();
      throw moved(who.serverName);
    }
    if (status !== 200) {
      const text = await readAll(response, 64 * 1024).catch(() => "");
      const why = ((): string => {
        try {
          return (JSON.parse(text) as { message?: string }).message ?? `HTTP ${status}`;
        } catch {
          return `HTTP ${status}`;
        }
      })();
      if (status === 404) throw new EngineError("not_found", `${name}: ${why}`);
      // The front door's cap on a request body holds for the hop as for the API.
      if (status === 413) {
        throw new EngineError(
          "limit_exceeded",
          `${name}: the request is larger than one replica forwards to another (SWITCHBOARD_MAX_BODY_BYTES)`,
        );
      }
      if (status === 401) {
        throw new EngineError(
          "unreachable",
          `${name}: replica ${holder.replica} refused the internal hop (${why}); every replica needs the same secret key and clocks within 30 s`,
        );
      }
      throw new EngineError("unreachable", `${name}: replica ${holder.replica} answered HTTP ${status} (${why})`);
    }
    let answered = false;
    await readLines(response, MAX_ANSWER_BYTES, (line) => {
      const message = JSON.parse(line) as JSONRPCMessage & { error?: { message: string; data?: { engineCode?: string } } };
      if ("id" in message && message.id === request.id && !("method" in message)) {
        answered = true;
        const engineCode = message.error?.data?.engineCode;
        // The holder's engine failed it: the same error as if it had failed here.
        if (engineCode) throw new EngineError(engineCode as ErrorCode, message.error!.message);
      }
      this.onmessage?.(message);
    });
    if (!answered) throw new EngineError("stream_broken", `${name}: replica ${holder.replica} ended the answer before it was complete`);
  }
}

/** Kept-alive sockets to the other replicas, per scheme (sockets are per replica). */
const httpAgent = new http.Agent({ keepAlive: true });
const httpsAgent = new https.Agent({ keepAlive: true });

/** POST `body` to `url` on Node's HTTP client: the answer's head, or the error (with `reusedSocket` when the socket was a kept one). */
function postTo(url: string, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<IncomingMessage> {
  const target = new URL(url);
  const secure = target.protocol === "https:";
  return new Promise((resolve, reject) => {
    const request = (secure ? https : http).request(target, {
      method: "POST",
      headers: { ...headers, "content-length": Buffer.byteLength(body) },
      agent: secure ? httpsAgent : httpAgent,
      signal,
    });
    request.once("response", resolve);
    request.once("error", (error: Error & { reusedSocket?: boolean }) => {
      error.reusedSocket = request.reusedSocket;
      reject(error);
    });
    request.end(body);
  });
}

/** All of `response`'s body as text, at most `maxBytes`. */
async function readAll(response: IncomingMessage, maxBytes: number): Promise<string> {
  let text = "";
  for await (const chunk of response) {
    text += String(chunk);
    if (text.length > maxBytes) break;
  }
  return text;
}

/** The holder let go of the server before running the request: the engine places it again (retried once). */
function moved(serverName: string): EngineError {
  return new EngineError("session_expired", `server "${serverName}" moved to another replica`);
}

/** Read `response`'s body as lines, at most `maxBytes`, handing each non-empty one to `onLine`. */
async function readLines(response: IncomingMessage, maxBytes: number, onLine: (line: string) => void): Promise<void> {
  const decoder = new StringDecoder("utf8");
  let pending = "";
  let bytes = 0;
  try {
    for await (const chunk of response) {
      bytes += (chunk as Buffer).length;
      if (bytes > maxBytes) throw new EngineError("message_too_large", `an answer over ${maxBytes} bytes came over the internal hop`);
      pending += decoder.write(chunk as Buffer);
      let end = pending.indexOf("\n");
      while (end >= 0) {
        const line = pending.slice(0, end);
        pending = pending.slice(end + 1);
        if (line.trim()) onLine(line);
        end = pending.indexOf("\n");
      }
    }
    pending += decoder.end();
    if (pending.trim()) onLine(pending);
  } catch (error) {
    response.destroy();
    throw error;
  }
}

/** The network error code in `error` or its cause chain, if any. */
function networkCode(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current && depth < 6; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^[A-Z_]+$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
