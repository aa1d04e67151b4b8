/**
 * The listing of one (user, server) entry and how it is kept fresh: the discovered lists with the
 * tools they register, replaced on connect, on a wrapper's re-list and after `list_changed`.
 * Notifications are coalesced: one re-list runs at a time, kinds that arrive meanwhile are queued
 * once each, and a re-list stops when its connection is no longer the entry's.
 */
import type { ServerDefinition } from "./config";
import type { Connection } from "./connection";
import type { Discovered, ListKind } from "./discovery";
import { registrationsOf, type UnnamedTool } from "./registry";

/** What the coordinator tells its entry. */
export interface RefreshHooks {
  /** The entry's live connection now (a re-list of another one stops). */
  current(): Connection | null;
  /** The listing changed; `emit` asks for a status push. */
  changed(emit: boolean): void;
  /** A `kind`/list_changed re-list took the server's new list (not a connect's or a page's listing). */
  refreshed?(kind: ListKind): void;
  /** A re-list after `list_changed` failed; the previous listing is kept. */
  failed(kind: ListKind, error: unknown): void;
}

/** One entry's listing and its list_changed re-lists. */
export class RefreshCoordinator {
  private listed: Discovered | null = null;
  private registered: UnnamedTool[] = [];
  private refreshing: Promise<void> | null = null;
  private readonly queued = new Set<ListKind>();

  constructor(
    private readonly server: ServerDefinition,
    private readonly hooks: RefreshHooks,
  ) {}

  /** The lists as last discovered (null before the first connect). */
  get discovered(): Discovered | null {
    return this.listed;
  }

  /** What the last listing registers (a new array for each listing: callers compare by identity). */
  get registrations(): UnnamedTool[] {
    return this.registered;
  }

  /** Take a new listing (connect, re-list). */
  apply(discovered: Discovered, emit = true): void {
    this.listed = discovered;
    this.registered = registrationsOf(this.server, discovered);
    this.hooks.changed(emit);
  }

  /** `kind`/list_changed on `connection`: re-list it, after the re-list already running if any. */
  listChanged(connection: Connection, kind: ListKind): Promise<void> {
    this.queued.add(kind);
    if (this.refreshing !== null) return this.refreshing;
    this.refreshing = (async () => {
      while (this.queued.size > 0 && this.hooks.current() === connection) {
        const next = [...this.queued][0];
        this.queued.delete(next);
        try {
          this.apply(await connection.refresh(next));
          this.hooks.refreshed?.(next);
        } catch (error) {
          // Keep the previous list; the next notification or reconnect lists again.
          this.hooks.failed(next, error);
        }
      }
    })().finally(() => (this.refreshing = null));
    return this.refreshing;
  }
}
