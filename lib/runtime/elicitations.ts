/**
 * Elicitation for signed-in users: a server's `elicitation/create` (form or URL mode) waits until
 * its user answers in the browser (`cancel` when the server aborts, `decline` when it expires). The
 * request waits on the replica whose connection received it; the user answers from any replica
 * (lib/runtime/question-desk.ts).
 */
import type { ElicitRequest, ElicitResult } from "@modelcontextprotocol/client";
import type { ElicitationHandler, ServerDefinition } from "../mcp";
import { isSafeLinkUrl } from "../net/url-safety";
import { PendingRequests } from "./pending-requests";
import { isPrivateTarget, secretLookingFields } from "./elicitation-checks";
import { type QuestionDesk, questionDesk } from "./question-desk";
import { singleton } from "../singleton";

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
  /** Form fields that look like secrets: the dialog warns, naming the server as configured. */
  secretFields?: string[];
  createdAt: number;
}

/** Holds pending elicitations per user and settles them with the user's answer. */
export class ElicitationBroker {
  private readonly queue: PendingRequests<Omit<PendingElicitationView, "id" | "createdAt">, ElicitResult>;

  /** With a `desk`, each request is also a row any replica lists and answers (the app's broker). */
  constructor(ttlMs = ELICITATION_TTL_MS, desk?: QuestionDesk) {
    this.queue = new PendingRequests<Omit<PendingElicitationView, "id" | "createdAt">, ElicitResult>(
      ttlMs,
      { action: "cancel" },
      { action: "decline" },
    );
    desk?.attach("elicitation", this.queue);
  }

  /** The engine's `onElicitation`: park the request until the user answers. */
  readonly handler: ElicitationHandler = (userId, server, params, signal) => this.request(userId, server, params, signal);

  /** Park one request; resolves with the user's answer. */
  request(userId: string, server: ServerDefinition, params: ElicitRequest["params"], signal: AbortSignal): Promise<ElicitResult> {
    const mode = params.mode === "url" ? "url" : "form";
    const url = mode === "url" ? (params as { url: string }).url : undefined;
    // A server may only send the user to http(s) pages; anything else is refused without asking.
    if (url !== undefined && !isSafeLinkUrl(url)) return Promise.resolve({ action: "decline" });
    // Nor to this machine or a private network (a server could aim the browser at the user's router).
    if (url !== undefined && isPrivateTarget(url)) return Promise.resolve({ action: "decline" });
    const requestedSchema = mode === "form" ? (params as { requestedSchema: Record<string, unknown> }).requestedSchema : undefined;
    const secretFields = secretLookingFields(requestedSchema);
    return this.queue.wait(
      userId,
      {
        serverId: server.id,
        serverName: server.name,
        mode,
        message: params.message,
        requestedSchema,
        url,
        host: url ? new URL(url).host : undefined,
        ...(secretFields.length ? { secretFields } : {}),
      },
      signal,
    );
  }

  /** The user's requests waiting on this replica, oldest first (the app lists every replica's: question-desk.ts). */
  list(userId: string): PendingElicitationView[] {
    return this.queue.list(userId);
  }

  /** Withdraw the pending requests of a removed server (all users, or only `userId`'s). */
  withdrawServer(serverId: string, userId?: string): number {
    return this.queue.withdraw((view, owner) => view.serverId === serverId && (!userId || owner === userId));
  }

  /** Settle one of the user's requests; false when there is no such request for this user. */
  answer(userId: string, id: string, result: ElicitResult): boolean {
    return this.queue.answer(userId, id, result);
  }
}

/**
 * The process-wide broker (one per process, so dev reloads share it: lib/singleton.ts): its
 * requests wait on this replica's connections and are rows of the question desk.
 */
export function elicitationBroker(): ElicitationBroker {
  return singleton("host.elicitations", () => new ElicitationBroker(ELICITATION_TTL_MS, questionDesk()));
}
