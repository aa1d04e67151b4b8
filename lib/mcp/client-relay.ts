/**
 * Who answers a server's questions during one request: normally the host (elicitation asked in
 * Switchboard, sampling with the workspace's model), but a request made on behalf of another MCP
 * client (the gateway, docs/gateway.md#questions-from-the-server) can hand them to that client.
 *
 * The relay rides the request's async context, so it reaches exactly the server requests that
 * arrive while that request runs on its own stream (a 2025-11-25 POST's SSE stream, or the
 * 2026-07-28 `input_required` rounds the SDK fulfils inside the call). Connections are opened
 * outside any relay (`withoutClientRelay`), so a long-lived stream never inherits one.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { CreateMessageRequest, CreateMessageResult, ElicitRequest, ElicitResult } from "@modelcontextprotocol/client";

/** What the calling client can answer in the host's place. */
export interface ClientRelay {
  /** Ask the client; undefined when it cannot take this request (the host asks instead). */
  elicit?: (params: ElicitRequest["params"], signal: AbortSignal) => Promise<ElicitResult> | undefined;
  /**
   * Have the client's model answer; undefined when it cannot (the host's model answers instead). The
   * server's sampling policy still applies around it (sampling.ts).
   */
  sample?: (params: CreateMessageRequest["params"], signal: AbortSignal) => Promise<CreateMessageResult> | undefined;
}

const storage = new AsyncLocalStorage<ClientRelay>();

/**
 * Run `fn` with `relay` answering the server's questions; once `fn` settles the relay is spent, so
 * anything that kept its context past the request falls back to the host.
 */
export async function withClientRelay<T>(relay: ClientRelay, fn: () => Promise<T>): Promise<T> {
  let live = true;
  const bounded: ClientRelay = {
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
