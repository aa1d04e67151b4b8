/**
 * The fan-out of engine events to the browsers that watch them: the pool's status hook and
 * resource-update listeners publish here, each `GET /api/events` stream subscribes for its user.
 * Events are keyed by user: a (user, server) status never reaches another user's stream.
 *
 * In single-node mode the hub is this process's map of listeners, nothing more. In cluster mode
 * (`REDIS_URL`) an event is also published on the user's own channel (`events:<userId>`), which a
 * replica subscribes to while that user has a stream open on it: a replica hears only the users it
 * serves, so a thousand users with several tabs cost each replica its own users' events, not the
 * whole instance's (one shared channel would make every replica decode every event). Local streams
 * still get the event at once, and a publish that cannot reach Redis is logged, never thrown: a
 * status is state the page re-reads on every (re)connect (docs/workbench.md#live-status).
 */
import { randomUUID } from "node:crypto";
import { type Coordination, coordination } from "../cluster";
import type { ServerStatus } from "../mcp";
import { singleton } from "../singleton";

/** One event as the browser receives it (the SSE `event:` name is `type`). */
export type LiveEvent =
  | { type: "status"; serverId: string; status: ServerStatus }
  | { type: "resource_updated"; serverId: string; uri: string }
  /**
   * The user's own membership changed (joined, removed, role, workspace deleted): their workspace
   * list is stale. `notice` is what their open pages of that workspace say at once (a lowered role,
   * a deleted workspace); a removal is explained by the next request instead (`workspace.removed`).
   */
  | { type: "membership"; workspaceId: string; notice?: AccessNotice };

/** An access change said live: the error code the UI already maps, and the sentence (who, what, when). */
export interface AccessNotice {
  code: "workspace.role_changed" | "workspace.deleted";
  message: string;
}

type Listener = (event: LiveEvent) => void;

/** How long a replica's word that a user watches lasts (renewed while the user has a stream open on it). */
export const WATCHING_TTL_MS = 30_000;
/** How often a replica renews the word for the users with a stream open on it. */
const WATCHING_RENEW_MS = 10_000;
/** How long an answer about another replica's streams is reused (the pool asks on every call). */
const WATCHING_CACHE_MS = 2_000;
/** Past this many remembered answers, the old ones are forgotten (users who stopped calling). */
const WATCHING_CACHE_MAX = 4_096;
/** At most one warning per this long about events not sent to the other replicas (an outage). */
const WARN_EVERY_MS = 5_000;

/** What goes over a user's channel: the event and which hub sent it (its own echo is skipped). */
interface Envelope {
  from: string;
  event: LiveEvent;
}

/** The coordination key saying some replica has a stream of `userId` open. */
function watchingKey(userId: string): string {
  return `events.watching:${userId}`;
}

/** A user's channel between replicas. */
function channel(userId: string): string {
  return `events:${userId}`;
}

/** Subscribers per user id; across replicas through `coordination` when it is clustered. */
export class StatusEvents {
  private readonly listeners = new Map<string, Set<Listener>>();
  /** Per user with a local stream (cluster mode): the channel subscription, once it is in place. */
  private readonly channels = new Map<string, Promise<() => Promise<void>>>();
  /** Answers about streams on other replicas: user → whether one is open, and when that was read. */
  private readonly remoteWatching = new Map<string, { watched: boolean; at: number; reading: boolean }>();
  /** This hub's id on the channels, so it skips its own events (its streams had them already). */
  private readonly id = randomUUID();
  private renewTimer: NodeJS.Timeout | null = null;
  private lastWarned = 0;

  /** A hub over `coordination` (the process's own in the app; tests pass one per "replica"). */
  constructor(private readonly coordination: Coordination) {}

  /** Deliver an event to every stream of `userId` on every replica; never throws, a failing listener never stops the others. */
  publish(userId: string, event: LiveEvent): void {
    this.deliver(userId, event);
    if (!this.coordination.clustered) return;
    const envelope: Envelope = { from: this.id, event };
    this.coordination.publish(channel(userId), JSON.stringify(envelope)).catch((error) => this.warn("sent to the other replicas", error));
  }

  /** Listen for `userId`'s events; returns the function that stops listening. */
  subscribe(userId: string, listener: Listener): () => void {
    let set = this.listeners.get(userId);
    if (!set) {
      set = new Set<Listener>();
      this.listeners.set(userId, set);
    }
    // On the user's first stream here, or again after their channel could not be subscribed.
    if (this.coordination.clustered && !this.channels.has(userId)) this.attach(userId);
    set.add(listener);
    const own = set;
    return () => {
      own.delete(listener);
      if (own.size > 0 || this.listeners.get(userId) !== own) return;
      this.listeners.delete(userId);
      if (this.coordination.clustered) this.detach(userId);
    };
  }

  /**
   * Settles once events of `userId` published on any replica reach this one's listeners; null in
   * single-node mode or without a listener, where there is nothing to wait for. A stream says
   * `ready` only then, so the page's re-read misses nothing. While Redis is restarting it waits for
   * it; it rejects when Redis cannot be reached at all (no connection was ever made).
   */
  attached(userId: string): Promise<void> | null {
    const subscribing = this.channels.get(userId);
    return subscribing === undefined ? null : subscribing.then(() => undefined);
  }

  /**
   * Whether `userId` has a stream open on any replica (the pool pushes new call figures only then).
   * Synchronous, as the pool asks on every call: another replica's streams are known from the
   * coordination, read in the background and reused for `WATCHING_CACHE_MS`, so figures start
   * going out within a call or two of a page opening elsewhere (the page reads them on `ready`).
   */
  watching(userId: string): boolean {
    if (this.listeners.has(userId)) return true;
    if (!this.coordination.clustered) return false;
    const known = this.remoteWatching.get(userId);
    if (!known || (!known.reading && Date.now() - known.at > WATCHING_CACHE_MS)) this.readWatching(userId);
    return known?.watched ?? false;
  }

  /** How many streams are open on this replica (for tests and the health view). */
  size(): number {
    let count = 0;
    for (const set of this.listeners.values()) count += set.size;
    return count;
  }

  /**
   * Stop listening on every channel and renewing (a test's "replica" going away). A subscription
   * still waiting for Redis is left to end with its coordination, so this never waits on an outage.
   */
  async close(): Promise<void> {
    if (this.renewTimer) clearInterval(this.renewTimer);
    this.renewTimer = null;
    const subscriptions = [...this.channels.values()];
    this.channels.clear();
    this.listeners.clear();
    for (const subscribing of subscriptions) subscribing.then((unsubscribe) => unsubscribe()).catch(() => {});
  }

  private deliver(userId: string, event: LiveEvent): void {
    for (const listener of this.listeners.get(userId) ?? []) {
      try {
        listener(event);
      } catch (error) {
        console.warn("live event listener failed", String(error));
      }
    }
  }

  /** The user's first stream here: hear their channel, and say that they watch. */
  private attach(userId: string): void {
    const subscribing = this.coordination.subscribe(channel(userId), (message) => this.received(userId, message));
    // A failed subscription is the stream's to report (`attached`); it is forgotten, so the next
    // stream (the browser's reconnect) tries afresh.
    subscribing.catch(() => {
      if (this.channels.get(userId) === subscribing) this.channels.delete(userId);
    });
    this.channels.set(userId, subscribing);
    this.sayWatching([userId]);
    this.renewTimer ??= setInterval(() => this.renewWatching(), WATCHING_RENEW_MS);
    this.renewTimer.unref();
  }

  /**
   * The user's last stream here closed. Their watching word is left to lapse: another replica may
   * hold a stream of theirs too, and a word that outlives the streams only sends figures for nobody.
   */
  private detach(userId: string): void {
    const subscribing = this.channels.get(userId);
    this.channels.delete(userId);
    subscribing?.then((unsubscribe) => unsubscribe()).catch(() => {});
    if (this.listeners.size === 0 && this.renewTimer) {
      clearInterval(this.renewTimer);
      this.renewTimer = null;
    }
  }

  private received(userId: string, message: string): void {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(message) as Envelope;
    } catch {
      console.warn("unreadable live event from another replica");
      return;
    }
    if (envelope.from === this.id) return;
    this.deliver(userId, envelope.event);
  }

  private readWatching(userId: string): void {
    const known = this.remoteWatching.get(userId);
    if (known) known.reading = true;
    else {
      if (this.remoteWatching.size >= WATCHING_CACHE_MAX) this.forgetOldAnswers();
      this.remoteWatching.set(userId, { watched: false, at: 0, reading: true });
    }
    this.coordination.get(watchingKey(userId)).then(
      (value) => this.remoteWatching.set(userId, { watched: value !== null, at: Date.now(), reading: false }),
      // Unknown while Redis is out of reach: keep the last answer, ask again after the usual wait.
      () => this.remoteWatching.set(userId, { watched: known?.watched ?? false, at: Date.now(), reading: false }),
    );
  }

  private forgetOldAnswers(): void {
    const now = Date.now();
    for (const [userId, known] of this.remoteWatching)
      if (!known.reading && now - known.at > WATCHING_CACHE_MS) this.remoteWatching.delete(userId);
  }

  private renewWatching(): void {
    this.sayWatching([...this.listeners.keys()]);
  }

  /** Put each user's watching word (node-redis pipelines the commands sent together). */
  private sayWatching(userIds: string[]): void {
    for (const userId of userIds)
      this.coordination.put(watchingKey(userId), "1", WATCHING_TTL_MS).catch((error) => this.warn("marked as watched", error));
  }

  private warn(what: string, error: unknown): void {
    if (Date.now() - this.lastWarned < WARN_EVERY_MS) return;
    this.lastWarned = Date.now();
    console.warn(`live events not ${what}:`, String((error as Error)?.message ?? error).slice(0, 200));
  }
}

/** The process-wide event hub, over the process's coordination. */
export function statusEvents(): StatusEvents {
  return singleton("host.statusEvents", () => new StatusEvents(coordination()));
}

/**
 * Tell `userId`'s open pages that their membership of `workspaceId` changed (the switcher re-reads
 * its list); with `notice`, the pages showing that workspace also say what happened.
 */
export function publishMembership(userId: string, workspaceId: string, notice?: AccessNotice): void {
  statusEvents().publish(userId, notice ? { type: "membership", workspaceId, notice } : { type: "membership", workspaceId });
}

/** The pool's `onStatusChange` hook: every status change becomes a `status` event for its user. */
export function publishStatus(status: ServerStatus): void {
  statusEvents().publish(status.userId, { type: "status", serverId: status.serverId, status });
}
