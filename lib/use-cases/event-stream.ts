/**
 * One browser tab's `GET /api/events` stream: server-sent events of the caller's own (user, server)
 * statuses and resource updates, for servers of workspaces the caller still belongs to. Membership
 * and the session are checked again while the stream is open, so a removed member or a signed-out
 * browser stops receiving within one heartbeat (docs/workbench.md#live-status).
 */
import { getDb } from "../../db/client";
import { getServerByIdUnscoped } from "../../db/queries/servers";
import { getMembershipRole } from "../../db/queries/workspaces";
import { resolveSession } from "../auth/sessions";
import { acquireEventStream } from "../quotas";
import { type LiveEvent, type StatusEvents, statusEvents } from "../runtime/status-events";

/** Options of `openEventStream`. */
export interface EventStreamOptions {
  /** Time between heartbeats (and session re-checks). Default: 15000 ms. */
  heartbeatMs?: number;
  /** The request's abort signal: the stream ends when the browser goes away. */
  signal?: AbortSignal;
  /** Send `ready` and end (a probe that the caller may open the stream). Default: false. */
  once?: boolean;
  /** Called once when the stream ends, however it ends (frees the caller's stream slot). Default: none. */
  onClose?: () => void;
  /** The event hub to listen to. Default: the process's (`statusEvents()`); tests pass one per "replica". */
  hub?: StatusEvents;
}

/** Whether `userId` may see events of `serverId` right now (a member of its workspace). */
export async function mayWatch(userId: string, serverId: string): Promise<boolean> {
  const db = getDb();
  const record = await getServerByIdUnscoped(db, serverId);
  return !!record && (await getMembershipRole(db, record.workspaceId, userId)) !== null;
}

/** Encode one SSE event (JSON data on one line, so no `data:` splitting is needed). */
export function sseEvent(name: string, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * The SSE body for one browser tab of the caller, holding one of the caller's and one of the
 * instance's stream slots while open (429 past either cap, docs/limits.md).
 */
export async function openCallerEventStream(
  caller: { id: string; sessionId: string },
  options: Pick<EventStreamOptions, "signal" | "once">,
): Promise<ReadableStream<Uint8Array>> {
  const release = await acquireEventStream(caller.id);
  return openEventStream(caller, { ...options, onClose: release });
}

/** The SSE body for one caller; closes on abort, on session end, or when the consumer cancels. */
export function openEventStream(caller: { id: string; sessionId: string }, options: EventStreamOptions = {}): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  let stop = () => {};
  return new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      const send = (text: string) => {
        if (!closed) controller.enqueue(encoder.encode(text));
      };
      const sessionLive = async () => (await resolveSession(getDb(), caller.sessionId)) === caller.id;
      // A membership event is about the caller's own list; server events need a membership now.
      const forward = async (event: LiveEvent) => {
        if (event.type !== "membership" && !(await mayWatch(caller.id, event.serverId))) return;
        send(sseEvent(event.type, event));
      };
      // Checked one after another, so events reach the page in the order they happened; a failed
      // check ends the stream (as a throw in the listener did while the check was synchronous).
      let forwarding = Promise.resolve();
      const hub = options.hub ?? statusEvents();
      // A probe (`once`) ends at `ready`: it listens to nothing (in cluster mode, no channel to join).
      const unsubscribe = options.once
        ? () => {}
        : hub.subscribe(caller.id, (event: LiveEvent) => {
            forwarding = forwarding.then(() => forward(event)).catch(() => finish());
          });
      const heartbeat = setInterval(() => {
        // A signed-out or expired session ends the stream: it must not outlive the sign-in.
        sessionLive().then(
          (live) => (live ? send(`: heartbeat ${Date.now()}\n\n`) : finish()),
          () => finish(),
        );
      }, heartbeatMs);
      const finish = () => {
        if (closed) return;
        closed = true;
        clearInterval(heartbeat);
        unsubscribe();
        options.signal?.removeEventListener("abort", finish);
        options.onClose?.();
        try {
          controller.close();
        } catch {
          // Already closed by the consumer's cancel: nothing left to end.
        }
      };
      stop = finish;
      options.signal?.addEventListener("abort", finish);
      // Gone while its slot was being taken (a round trip to Redis in cluster mode): the abort
      // event has fired already, so it would not end the stream.
      if (options.signal?.aborted) return finish();
      // The client re-reads statuses on `ready`, so nothing that changed before it subscribed is
      // missed: in cluster mode `ready` waits until events from the other replicas reach this one
      // (through a Redis restart too), and a stream that cannot reach Redis at all ends (the browser
      // reconnects in 3 s and tries again).
      const ready = () => {
        send(`retry: 3000\n${sseEvent("ready", { heartbeatMs })}`);
        if (options.once) finish();
      };
      const attached = options.once ? null : hub.attached(caller.id);
      if (attached === null) ready();
      else attached.then(ready, () => finish());
    },
    cancel() {
      stop();
    },
  });
}
