/**
 * Resource subscriptions of one 2025-era gateway session: each `resources/subscribe` of the client
 * subscribes on the member's own connection (lib/use-cases/server-ops.ts) and relays the
 * upstream's `notifications/resources/updated` for that URI to the session; `resources/unsubscribe`
 * and the end of the session undo it. A 2026-07-28 request has no session to notify, so the
 * stateless path never subscribes (the capability is not declared there).
 */
import "server-only";
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { type Caller, subscribeServerResource } from "../server-ops";

// Each subscription holds the member's connection open and a listener: a bound per session.
const MAX_SUBSCRIPTIONS = 64;

/** The subscriptions of one session, by URI. */
export class SessionSubscriptions {
  private readonly stops = new Map<string, Promise<() => Promise<void>>>();

  constructor(
    private readonly caller: Caller,
    private readonly serverId: string,
    private readonly notify: (uri: string) => void,
  ) {}

  /** Subscribe to `uri` (again: nothing more to do). */
  async subscribe(uri: string): Promise<void> {
    if (this.stops.has(uri)) return;
    if (this.stops.size >= MAX_SUBSCRIPTIONS) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `At most ${MAX_SUBSCRIPTIONS} resource subscriptions per session.`);
    }
    const stop = subscribeServerResource(this.caller, this.serverId, uri, this.notify);
    this.stops.set(uri, stop);
    await stop.catch((error: unknown) => {
      this.stops.delete(uri);
      throw error;
    });
  }

  /** Unsubscribe from `uri` (not subscribed: nothing to do, as the spec lets a server answer). */
  async unsubscribe(uri: string): Promise<void> {
    const stop = this.stops.get(uri);
    if (!stop) return;
    this.stops.delete(uri);
    await (await stop)();
  }

  /** Undo every subscription (the session ended); failures are the upstream's, not the client's. */
  closeAll(): void {
    for (const uri of [...this.stops.keys()]) void this.unsubscribe(uri).catch(() => undefined);
  }
}
