/**
 * The holder's end of the relay (cluster mode): a replica running the sandbox of a (user, server)
 * answers here the requests other replicas forward to it (lib/runtime/relay-transport.ts), at
 * `POST /api/internal/sandbox`. No session guards this path; the internal hop's proof does
 * (lib/runtime/internal-hop.ts: signed under a key only the replicas derive, for this replica, fresh,
 * never replayed). Then, as a route would: the person must still be a member of the server's
 * workspace and the server one of its own (through the caches every route reads), and this replica
 * must hold the sandbox's lease, else 409 and the asker places the server again.
 *
 * The answer is newline-delimited JSON-RPC: a tool call's progress as it comes, then the answer,
 * or the engine's error with its code (the asker fails the call exactly as it would have failed
 * here). A request cut off by the asker (a cancelled call) cancels the call here.
 */
import { once } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { getDb } from "../../db/client";
import { clustered } from "../cluster";
import { AppError } from "../errors";
import { bodyTooLarge, errorResponse, maxBodyBytes, parseJsonText, readBodyText } from "../http";
import { isEngineError } from "../mcp/errors";
import { redact } from "../redact";
import { cachedServerDefinition } from "../runtime/definition-cache";
import { appPool } from "../runtime/engine";
import { HOP_HEADER, hopVerifier } from "../runtime/internal-hop";
import { HOP_PATH } from "../runtime/relay-transport";
import { sandboxLeases } from "../runtime/sandbox-leases";
import { membershipOf } from "../workspaces/membership-lookup";

const RelayedRequest = z.object({
  userId: z.string().min(1),
  workspaceId: z.string().min(1),
  serverId: z.string().min(1),
  message: z.looseObject({
    jsonrpc: z.literal("2.0"),
    id: z.union([z.string(), z.number()]),
    method: z.string(),
    params: z.record(z.string(), z.unknown()).optional(),
  }),
});

type RpcId = string | number;

/** JSON-RPC's code for an error the engine raised (its own code travels in `data.engineCode`). */
const ENGINE_FAILURE = -32603;

/**
 * What the hop answers one request: a refusal (before anything ran), or a 200 whose lines `run`
 * writes as they come (a tool call's progress) and whose last line, the answer, it returns.
 */
type HopAnswer = { refusal: unknown } | { run(write: (line: string) => void): Promise<string> };

/** Check and answer one relayed request: its proof, its body, and the signal that ends when its asker goes away. */
async function answerHop(proof: string | null, body: string, signal: AbortSignal): Promise<HopAnswer> {
  try {
    if (!clustered()) throw new AppError("cluster.hop_refused", "The internal hop was refused: this replica does not run in cluster mode.");
    const verdict = hopVerifier().verify(proof, { method: "POST", path: HOP_PATH, body });
    if (!verdict.ok) {
      console.warn(`[switchboard] internal hop refused: ${verdict.reason}`);
      throw new AppError("cluster.hop_refused", `The internal hop was refused: ${verdict.reason}.`);
    }
    const { userId, workspaceId, serverId, message } = parseJsonText(body, RelayedRequest);
    // A relay's health ping asks whether this replica answers, whatever it runs: a holder that let go
    // of an idle sandbox must not make the asker start one.
    if (message.method === "ping") return lines(message.id, async () => ({}));
    if (!sandboxLeases().holds(userId, serverId)) {
      throw new AppError("cluster.sandbox_moved", "This replica does not run that server's sandbox (any more).");
    }
    const db = getDb();
    if (!(await membershipOf(db, userId, { id: workspaceId }))) throw new AppError("server.not_found", "Server not found.");
    const session = appPool().session(userId, await cachedServerDefinition(db, { id: userId, workspaceId }, serverId));
    const progressToken = (message.params?._meta as { progressToken?: RpcId } | undefined)?.progressToken;
    return lines(message.id, async (notify) => {
      if (message.method === "initialize") {
        const requested = (message.params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
        return { protocolVersion: typeof requested === "string" ? requested : "2025-11-25", ...(await session.forwardedHandshake()) };
      }
      return await session.forwarded(message.method, message.params, {
        signal,
        onProgress:
          progressToken === undefined
            ? undefined
            : (progress) => notify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken, ...progress } }),
      });
    });
  } catch (error) {
    return { refusal: error };
  }
}

/** The lines `run` notifies, then its answer (or its failure) for request `id`. */
function lines(id: RpcId, run: (notify: (message: unknown) => void) => Promise<unknown>): HopAnswer {
  return {
    async run(write) {
      const line = (message: unknown) => `${JSON.stringify(message)}\n`;
      try {
        return line({ jsonrpc: "2.0", id, result: await run((message) => write(line(message))) });
      } catch (error) {
        return line({ jsonrpc: "2.0", id, error: failure(error) });
      }
    },
  };
}

const NDJSON = { "content-type": "application/x-ndjson", "cache-control": "no-store" };

/** Answer one relayed request as a route (app/api/internal/sandbox/route.ts, for `next dev`). */
export async function serveSandboxHop(request: Request): Promise<Response> {
  let answer: HopAnswer;
  try {
    answer = await answerHop(request.headers.get(HOP_HEADER), await readBodyText(request, maxBodyBytes()), request.signal);
  } catch (error) {
    answer = { refusal: error };
  }
  if ("refusal" in answer) return errorResponse(answer.refusal);
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      let open = true;
      const write = (line: string) => {
        if (!open) return;
        try {
          controller.enqueue(encoder.encode(line));
        } catch {
          // The asker went away (a cancelled call): nothing reads this any more.
          open = false;
        }
      };
      write(await answer.run(write));
      if (open) controller.close();
    },
  });
  return new Response(stream, { status: 200, headers: NDJSON });
}

/**
 * Serve `req` when it is the internal hop (`POST /api/internal/sandbox`) and answer true; false leaves
 * it to whatever serves the rest. The app's HTTP server consults it before the direct lane
 * (instrumentation.ts, cluster mode): the body read straight off the socket and the lines written
 * straight to it, with no pass through Next's router and no web stream.
 */
export function serveSandboxHopOn(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== "POST" || (req.url ?? "").split("?")[0] !== HOP_PATH) return false;
  answerOn(req, res).catch((error: unknown) => {
    console.error("[switchboard] the internal hop failed:", redact(String((error as Error)?.message ?? error)));
    if (!res.headersSent) res.writeHead(500).end();
    else res.destroy();
  });
  return true;
}

async function answerOn(req: IncomingMessage, res: ServerResponse): Promise<void> {
  // The asker going away (a cancelled call) aborts the call here, as Next's request.signal would.
  const aborted = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) aborted.abort();
  });
  let answer: HopAnswer;
  try {
    const proof = req.headers[HOP_HEADER];
    answer = await answerHop(typeof proof === "string" ? proof : null, await readNodeBody(req, maxBodyBytes()), aborted.signal);
  } catch (error) {
    answer = { refusal: error };
  }
  if ("refusal" in answer) {
    const response = errorResponse(answer.refusal);
    res.writeHead(response.status, { "content-type": "application/json" }).end(await response.text());
    return;
  }
  // The head goes with the first progress line, or with the answer (one write, its length known).
  let pending: Promise<unknown> = Promise.resolve();
  const last = await answer.run((line) => {
    if (!res.headersSent) res.writeHead(200, NDJSON);
    if (!res.write(line)) pending = once(res, "drain");
  });
  await pending;
  if (!res.headersSent) res.writeHead(200, { ...NDJSON, "content-length": Buffer.byteLength(last) });
  res.end(last);
}

/** `req`'s body as text, at most `maxBytes` (else the 413 every route answers). */
async function readNodeBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  if (Number(req.headers["content-length"] ?? 0) > maxBytes) throw bodyTooLarge(maxBytes);
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of req) {
    bytes += (chunk as Buffer).length;
    if (bytes > maxBytes) throw bodyTooLarge(maxBytes);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The JSON-RPC error for what failed here: the engine's code and message as they are, anything else as a server error. */
function failure(error: unknown): { code: number; message: string; data: { engineCode: string } } {
  if (isEngineError(error)) return { code: ENGINE_FAILURE, message: error.message, data: { engineCode: error.code } };
  // A quota of this replica refused to open the connection (lib/quotas): the asker sees the same refusal.
  if (error instanceof AppError) {
    return { code: ENGINE_FAILURE, message: error.message, data: { engineCode: error.status === 429 ? "quota_exceeded" : "server_error" } };
  }
  console.error("[switchboard] a relayed request failed:", redact(String((error as Error)?.message ?? error)));
  return { code: ENGINE_FAILURE, message: "The replica running this server failed the request.", data: { engineCode: "server_error" } };
}
