/**
 * Elicitation for signed-in users: a server's `elicitation/create` (form or URL mode) waits here
 * until its user answers in the browser, the server cancels, or it expires. Requests are keyed by
 * user, so nobody can see or answer another user's.
 */
import { randomUUID } from "node:crypto";
import type { ElicitRequest, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import type { ElicitationHandler, ServerDefinition } from "../mcp";
import { isSafeLinkUrl } from "../net/url-safety";

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

interface Pending {
  view: PendingElicitationView;
  userId: string;
  settle: (result: ElicitResult) => void;
}

/** Holds pending elicitations per user and settles them with the user's answer. */
export class ElicitationBroker {
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly ttlMs = ELICITATION_TTL_MS) {}

  /** The engine's `onElicitation`: park the request until the user answers. */
  readonly handler: ElicitationHandler = (userId, server, params, signal) => this.request(userId, server, params, signal);

  /** Park one request; resolves with the user's answer, `cancel` when the server aborts, `decline` on expiry. */
  request(userId: string, server: ServerDefinition, params: ElicitRequest["params"], signal: AbortSignal): Promise<ElicitResult> {
    const mode = params.mode === "url" ? "url" : "form";
    const url = mode === "url" ? (params as { url: string }).url : undefined;
    // A server may only send the user to http(s) pages; anything else is refused without asking.
    if (url !== undefined && !isSafeLinkUrl(url)) return Promise.resolve({ action: "decline" });
    const id = randomUUID();
    const view: PendingElicitationView = {
      id,
      serverId: server.id,
      serverName: server.name,
      mode,
      message: params.message,
      requestedSchema: mode === "form" ? (params as { requestedSchema: Record<string, unknown> }).requestedSchema : undefined,
      url,
      host: url ? new URL(url).host : undefined,
      createdAt: Date.now(),
    };
    return new Promise<ElicitResult>((resolve) => {
      const timer = setTimeout(() => settle({ action: "decline" }), this.ttlMs);
      timer.unref?.();
      const onAbort = () => settle({ action: "cancel" });
      const settle = (result: ElicitResult) => {
        if (!this.pending.delete(id)) return;
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        resolve(result);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.pending.set(id, { view, userId, settle });
    });
  }

  /** The user's pending requests, oldest first. */
  list(userId: string): PendingElicitationView[] {
    return [...this.pending.values()].filter((p) => p.userId === userId).map((p) => p.view).sort((a, b) => a.createdAt - b.createdAt);
  }

  /** Settle one of the user's requests; false when there is no such request for this user. */
  answer(userId: string, id: string, result: ElicitResult): boolean {
    const entry = this.pending.get(id);
    if (!entry || entry.userId !== userId) return false;
    entry.settle(result);
    return true;
  }
}

const slot = globalThis as { __switchboardElicitations?: ElicitationBroker };

/** The process-wide broker (kept on globalThis like the pool, so dev reloads share it). */
export function elicitationBroker(): ElicitationBroker {
  slot.__switchboardElicitations ??= new ElicitationBroker();
  return slot.__switchboardElicitations;
}
