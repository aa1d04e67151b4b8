/**
 * Elicitation for signed-in users: a server's `elicitation/create` (form or URL mode) waits until
 * its user answers in the browser (`cancel` when the server aborts, `decline` when it expires).
 */
import type { ElicitRequest, ElicitResult } from "@modelcontextprotocol/client";
import type { ElicitationHandler, ServerDefinition } from "../mcp";
import { isSafeLinkUrl } from "../net/url-safety";
import { PendingRequests } from "./pending-requests";

/** How long a request waits for its user before it is declined (ms). */
export const ELICITATION_TTL_MS = 10 * 60_000;

/** What the browser sees of a pending request. */
export interface PendingElicitationView {
  id: string;
  serverId: string;
  serverName: string;
  mode: "form" | "url";
  message: string;
  requestedSchema?: Record<string, unknown>;
  /** URL mode: the target and its host, shown before the user consents to open it. */
  url?: string;
  host?: string;
  createdAt: number;
}

/** Holds pending elicitations per user and settles them with the user's answer. */
export class ElicitationBroker {
  private readonly queue: PendingRequests<Omit<PendingElicitationView, "id" | "createdAt">, ElicitResult>;

  constructor(ttlMs = ELICITATION_TTL_MS) {
    this.queue = new PendingRequests<Omit<PendingElicitationView, "id" | "createdAt">, ElicitResult>(
      ttlMs,
      { action: "cancel" },
      { action: "decline" },
    );
  }

  /** The engine's `onElicitation`: park the request until the user answers. */
  readonly handler: ElicitationHandler = (userId, server, params, signal) => this.request(userId, server, params, signal);

  /** Park one request; resolves with the user's answer. */
  request(userId: string, server: ServerDefinition, params: ElicitRequest["params"], signal: AbortSignal): Promise<ElicitResult> {
    const mode = params.mode === "url" ? "url" : "form";
    const url = mode === "url" ? (params as { url: string }).url : undefined;
    // A server may only send the user to http(s) pages; anything else is refused without asking.
    if (url !== undefined && !isSafeLinkUrl(url)) return Promise.resolve({ action: "decline" });
    return this.queue.wait(
      userId,
      {
        serverId: server.id,
        serverName: server.name,
        mode,
        message: params.message,
        requestedSchema: mode === "form" ? (params as { requestedSchema: Record<string, unknown> }).requestedSchema : undefined,
        url,
        host: url ? new URL(url).host : undefined,
      },
      signal,
    );
  }

  /** The user's pending requests, oldest first. */
  list(userId: string): PendingElicitationView[] {
    return this.queue.list(userId);
  }

  /** Settle one of the user's requests; false when there is no such request for this user. */
  answer(userId: string, id: string, result: ElicitResult): boolean {
    return this.queue.answer(userId, id, result);
  }
}

const slot = globalThis as { __switchboardElicitations?: ElicitationBroker };

/** The process-wide broker (kept on globalThis like the pool, so dev reloads share it). */
export function elicitationBroker(): ElicitationBroker {
  slot.__switchboardElicitations ??= new ElicitationBroker();
  return slot.__switchboardElicitations;
}
