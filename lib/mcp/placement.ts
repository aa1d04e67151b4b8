/**
 * Where a stdio server runs when several processes serve one instance (the app's cluster mode,
 * lib/runtime/sandbox-placement.ts). A stdio server's sandbox keeps a home per (user, server) that
 * only one process may mount at a time, so before a child is started the host says where it runs:
 * here, under a hold the engine gives back once the child has ended (and gives up at once, stopping
 * the child, when the host says the hold is lost); or on another process, reached through a
 * transport that forwards each request to it. Without a placement (single-node mode, the command
 * line) every stdio server starts here, exactly as before.
 */
import type { Transport } from "@modelcontextprotocol/client";
import type { ServerDefinition } from "./config";
import type { ListKind } from "./discovery";

/** This process's right to run one (user, server)'s stdio server, held while its child runs. */
export interface PlacementHold {
  /** Resolves when the right is lost (another process may run it now): the child must stop at once. */
  readonly lost: Promise<void>;
  /** Give the right back; called once, after the child has ended. */
  release(): Promise<void>;
}

/** Where one (user, server)'s stdio server runs. */
export type Placement =
  | { where: "here"; hold: PlacementHold }
  /** On another process: `transport` forwards each request to it (its connection answers them). */
  | { where: "elsewhere"; holder: string; transport: Transport };

/** Decides, before a stdio server starts, where it runs. */
export interface StdioPlacement {
  /**
   * Here (with a hold) or elsewhere (with a transport to it); waits while the right is held by a
   * process that is gone, until its hold runs out, or until `signal` aborts. Throws an `EngineError`
   * saying why when neither is possible.
   */
  place(userId: string, server: ServerDefinition, signal: AbortSignal): Promise<Placement>;
  /**
   * A server running here under a hold said one of its lists changed: the relays to it elsewhere
   * re-list (`McpPool.relayedListChanged` on their process). Must not throw.
   */
  listChanged?(userId: string, serverId: string, kind: ListKind): void;
}

/**
 * What a relay may forward besides `initialize`, `ping` and `tools/call` (which the receiving side
 * answers itself): the listings and the reads, nothing that changes what the connection holds.
 */
export const FORWARDED_METHODS = [
  "tools/list",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "prompts/list",
  "prompts/get",
  "completion/complete",
  "logging/setLevel",
] as const;

/** One of `FORWARDED_METHODS`. */
export type ForwardedMethod = (typeof FORWARDED_METHODS)[number];
