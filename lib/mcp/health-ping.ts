/**
 * Health pings for idle HTTP connections (docs/limits.md#health-pings). HTTP transports do not see a
 * server die between requests, so each pool sends MCP `ping` to every connection idle for the
 * interval (less up to 20 % jitter, so connections opened together do not ping together) and
 * reports a failed ping to the connection's owner, which treats it as a drop. One timer per pool,
 * however many connections: due connections wait in one-second slots (a timing wheel), and a budget
 * caps the pings the whole pool sends per second; pings over it wait for the next slot.
 */
import type { Clock, TimerHandle } from "./clock";
import { EngineError, isEngineError } from "./errors";

/** Idle time before a ping by default: with the jitter and the ping's own timeout a dead server shows within 60 s. */
export const DEFAULT_PING_INTERVAL_MS = 50_000;
/** Pings a pool sends per second at most by default (5,000 idle connections, the default ceiling, each pinged every 50 s). */
export const DEFAULT_PINGS_PER_SECOND = 100;
/** How long a ping waits for its answer (never longer than the interval). */
export const PING_TIMEOUT_MS = 5_000;
/** Width of one slot of the wheel: how late a due ping may go out, and the period of the budget. */
const SLOT_MS = 1000;
/** Share of the interval a ping may come early. */
const JITTER = 0.2;

/** What the scheduler needs of a connection (lib/mcp/connection.ts implements it). */
export interface Pingable {
  /** Clock time a request last started or ended on it. */
  readonly lastActivityAt: number;
  /** Requests in flight: a busy connection is not pinged (its requests tell whether it is alive). */
  readonly pending: number;
  /** True once closed: the scheduler forgets it. */
  readonly closed: boolean;
  /** Resolves when the server answered; rejects with an EngineError when the link failed. */
  ping(timeoutMs: number): Promise<void>;
}

/** How a pool pings. */
export interface HealthPingOptions {
  /** Idle time before a ping; 0 turns pings off. */
  intervalMs: number;
  /** Most pings sent per second across the pool (at least 1). */
  perSecond: number;
}

interface Watched {
  target: Pingable;
  failed: (error: EngineError) => void;
  /** The activity time the entry was placed from: later activity moves it. */
  from: number;
}

/** One pool's ping scheduler. */
export class HealthPings {
  private readonly slots = new Map<number, Watched[]>();
  /** Due but over the budget, oldest first: they go before anything that came due later. */
  private backlog: Watched[] = [];
  private timer: TimerHandle | null = null;
  private timerSlot = Number.POSITIVE_INFINITY;
  /** Pings sent so far (for tests and metrics). */
  sent = 0;

  /** `random` picks each ping's jitter (injectable so tests can pin it). */
  constructor(
    private readonly clock: Clock,
    readonly options: HealthPingOptions,
    private readonly random: () => number = Math.random,
  ) {}

  /** Ping `target` whenever it has been idle for the interval, until it closes; `failed` hears of a failed ping (then it is forgotten). */
  watch(target: Pingable, failed: (error: EngineError) => void): void {
    if (this.options.intervalMs > 0) this.place({ target, failed, from: target.lastActivityAt });
  }

  /** Connections waiting for their next ping (closed ones linger until their slot comes). */
  get watched(): number {
    let count = this.backlog.length;
    for (const entries of this.slots.values()) count += entries.length;
    return count;
  }

  private place(entry: Watched): void {
    const due = entry.from + this.options.intervalMs * (1 - JITTER * this.random());
    const at = Math.ceil(due / SLOT_MS);
    const entries = this.slots.get(at);
    if (entries) entries.push(entry);
    else this.slots.set(at, [entry]);
    this.arm(at);
  }

  private arm(slot: number): void {
    if (slot >= this.timerSlot) return;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timerSlot = slot;
    this.timer = this.clock.setTimeout(() => this.tick(), Math.max(0, slot * SLOT_MS - this.clock.now()));
  }

  private tick(): void {
    this.timer = null;
    this.timerSlot = Number.POSITIVE_INFINITY;
    const now = this.clock.now();
    const current = Math.floor(now / SLOT_MS);
    // At most one tick per slot (timers never fire early), so this is the budget per second.
    let budget = Math.max(1, Math.floor(this.options.perSecond));
    const ready = this.backlog;
    this.backlog = [];
    for (const slot of [...this.slots.keys()].filter((key) => key <= current).sort((a, b) => a - b)) {
      ready.push(...this.slots.get(slot)!);
      this.slots.delete(slot);
    }
    for (const entry of ready) {
      const { target } = entry;
      if (target.closed) continue;
      if (target.pending > 0 || target.lastActivityAt > entry.from) {
        // Used since it was placed: its idle time starts again from that use (or now, while busy).
        entry.from = target.pending > 0 ? now : target.lastActivityAt;
        this.place(entry);
      } else if (budget > 0) {
        budget--;
        this.send(entry);
      } else {
        this.backlog.push(entry);
      }
    }
    let next = this.backlog.length > 0 ? current + 1 : Number.POSITIVE_INFINITY;
    for (const slot of this.slots.keys()) next = Math.min(next, slot);
    if (next !== Number.POSITIVE_INFINITY) this.arm(next);
  }

  private send(entry: Watched): void {
    this.sent++;
    const { target } = entry;
    // While its ping is out the entry sits in no slot: a slow answer never brings a second ping.
    target.ping(Math.min(PING_TIMEOUT_MS, this.options.intervalMs)).then(
      () => {
        if (target.closed) return;
        entry.from = Math.max(this.clock.now(), target.lastActivityAt);
        this.place(entry);
      },
      (error: unknown) => {
        if (!target.closed) entry.failed(isEngineError(error) ? error : new EngineError("server_error", String(error)));
      },
    );
  }
}
