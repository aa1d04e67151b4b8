/**
 * One opener per transport (stdio, Streamable HTTP, legacy HTTP+SSE) behind one small interface:
 * given the connect attempt's context, open the wire, connect an SDK client over it and say which
 * transport it is. `connectTransport` (connection.ts) picks the opener from the config.
 */
import type { Client, PriorDiscovery, Transport } from "@modelcontextprotocol/client";
import type { ConnectPhase } from "./connect-phase";
import type { ConnectionOptions } from "./connection-options";
import type { ConnectionGuard } from "./limits";
import type { TransportUsed } from "./types";

/** A wire opened and its client connected (initialize done). */
export interface OpenedTransport {
  client: Client;
  transport: Transport;
  kind: TransportUsed;
  guard: ConnectionGuard;
}

/** What every opener gets from the connect attempt. */
export interface OpenContext {
  options: ConnectionOptions;
  /** Aborts the attempt (connect timeout, the pool closed the server). */
  signal: AbortSignal;
  /** Races the connect against a child's exit or a limit breach. */
  phase: ConnectPhase;
  /** The connection's guard: its caps, rates and reopen budget hold across every wire it opens. */
  guard: ConnectionGuard;
  /** Report each wire opened, so a failed attempt closes it and reads its exit and stderr. */
  track(transport: Transport): void;
  /** The remembered protocol era of this endpoint, if any. */
  remembered: PriorDiscovery | undefined;
  /**
   * Connect `client` over `transport` (wrapped by the guard), remembering the era negotiated unless
   * `rememberEra` is false (a relay: its handshake says nothing of the endpoint's own era).
   */
  connect(client: Client, transport: Transport, prior: PriorDiscovery | undefined, options?: { rememberEra?: boolean }): Promise<void>;
  /** The connect request's timeout and signal. */
  rpc: { timeout: number; signal: AbortSignal };
}

/** Opens one kind of transport. */
export type TransportOpener = (context: OpenContext) => Promise<OpenedTransport>;

/** Close a wire after a failed connect; the original error is what the user needs to see. */
export async function closeQuietly(
  transport: Transport | undefined,
  logger: { debug(message: string, fields?: Record<string, unknown>): void },
): Promise<void> {
  try {
    await transport?.close();
  } catch (error) {
    logger.debug("transport close after failed connect", { error: String(error) });
  }
}
