/**
 * Who answers a server's questions during one request: normally the host (elicitation asked in
 * Switchboard, sampling with the workspace's model), but a request made on behalf of another MCP
 * client (the gateway, docs/gateway.md#questions-from-the-server) can hand them to that client:
 * asked mid-request (a 2025-11-25 client), or returned as `input_required` for the client's own
 * retry (a 2026-07-28 client of a 2026-07-28 server: `withRoundTrip`).
 *
 * The relay rides the request's async context, so it reaches exactly the server requests that
 * arrive while that request runs on its own stream (a 2025-11-25 POST's SSE stream, or the
 * 2026-07-28 `input_required` rounds the SDK fulfils inside the call). Connections are opened
 * outside any relay (`withoutClientRelay`), so a long-lived stream never inherits one.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import {
  CLIENT_CAPABILITIES_META_KEY,
  type CreateMessageRequest,
  type CreateMessageResult,
  type ElicitRequest,
  type ElicitResult,
  type InputRequiredResult,
  isInputRequiredResult,
  ProtocolError,
} from "@modelcontextprotocol/client";

/** What the calling client can answer in the host's place. */
export interface ClientRelay {
  /** Ask the client; undefined when it cannot take this request (the host asks instead). */
  elicit?: (params: ElicitRequest["params"], signal: AbortSignal) => Promise<ElicitResult> | undefined;
  /**
   * Have the client's model answer; undefined when it cannot (the host's model answers instead). The
   * server's sampling policy still applies around it (sampling.ts).
   */
  sample?: (params: CreateMessageRequest["params"], signal: AbortSignal) => Promise<CreateMessageResult> | undefined;
  /**
   * A 2026-07-28 client's own multi-round trip: its retry material and capabilities go to a
   * 2026-07-28 server, and an `input_required` answer is handed back to it (`returned`) instead of
   * being fulfilled by the host.
   */
  roundTrip?: RoundTrip;
}

/** What a 2026-07-28 request carries of its multi-round trip, and what came back for it. */
export interface RoundTrip {
  inputResponses?: Record<string, unknown>;
  requestState?: string;
  /** The client's declared capabilities: the server asks only for what the client can answer. */
  capabilities?: Record<string, unknown>;
  /** The server's `input_required` answer, set by the engine for the client to fulfil. */
  returned?: InputRequiredResult;
  /**
   * The server's JSON-RPC refusal of this leg (a capability the client did not declare, a tampered
   * state, invalid input responses): the engine makes a tool's failure a result for the model, but
   * the client must get it as the error it is.
   */
  refusal?: ProtocolError;
}

const storage = new AsyncLocalStorage<ClientRelay>();

/**
 * Run `fn` with `relay` answering the server's questions; once `fn` settles the relay is spent, so
 * anything that kept its context past the request falls back to the host.
 */
export async function withClientRelay<T>(relay: ClientRelay, fn: () => Promise<T>): Promise<T> {
  let live = true;
  const bounded: ClientRelay = {
    ...(relay.roundTrip ? { roundTrip: relay.roundTrip } : {}),
    ...(relay.elicit ? { elicit: (params, signal) => (live ? relay.elicit!(params, signal) : undefined) } : {}),
    ...(relay.sample ? { sample: (params, signal) => (live ? relay.sample!(params, signal) : undefined) } : {}),
  };
  try {
    return await storage.run(bounded, fn);
  } finally {
    live = false;
  }
}

/** Run `fn` (opening a connection) with no relay, whatever the caller's context carries. */
export function withoutClientRelay<T>(fn: () => T): T {
  return storage.exit(fn);
}

/** The relay of the request running now, if any. */
export function clientRelay(): ClientRelay | undefined {
  return storage.getStore();
}

/** What a request adds for its round trip (`withRoundTrip`): its params, and its request options. */
export interface RoundTripLeg {
  params: Record<string, unknown>;
  /** The answer comes back raw, `input_required` included. */
  options: { allowInputRequired?: true };
}

/**
 * Send a request with the current request's round trip, on a connection that speaks 2026-07-28 (a
 * 2025-era server has no `input_required`): the server's answer, or `empty` when it is
 * `input_required`, which is kept in the round trip for the client to fulfil.
 */
export async function withRoundTrip<T extends object>(
  modern: boolean,
  empty: T,
  send: (leg: RoundTripLeg) => Promise<T | InputRequiredResult>,
): Promise<T> {
  const round = modern ? clientRelay()?.roundTrip : undefined;
  if (!round) return (await send({ params: {}, options: {} })) as T;
  const result = await send({
    params: {
      ...(round.inputResponses !== undefined ? { inputResponses: round.inputResponses } : {}),
      ...(round.requestState !== undefined ? { requestState: round.requestState } : {}),
      ...(round.capabilities ? { _meta: { [CLIENT_CAPABILITIES_META_KEY]: round.capabilities } } : {}),
    },
    options: { allowInputRequired: true },
  }).catch((error: unknown) => {
    if (error instanceof ProtocolError) round.refusal = error;
    throw error;
  });
  if (!isInputRequiredResult(result)) return result as T;
  round.returned = result;
  return empty;
}
