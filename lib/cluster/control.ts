/**
 * Orders between replicas: what one replica decides that every replica must apply to what it holds
 * in its own process (its MCP connections, its running turns). A removed member's connections and
 * turns may live on any replica, so the replica that removes them also says so on one channel,
 * `control`, and each replica applies it to its own. One subscription per process, one handler per
 * kind of order, registered by the module that owns the state (lib/servers/release.ts,
 * lib/use-cases/cluster-control.ts).
 *
 * In single-node mode there is no other replica: `send` does nothing and nothing is subscribed, so
 * the cost is unchanged. A `send` that cannot reach Redis is logged, never thrown: the order has
 * already been applied here, and the database already refuses the person on every replica.
 */
import { randomUUID } from "node:crypto";
import { redact } from "../redact";
import { singleton } from "../singleton";
import type { Coordination } from "./coordination";
import { coordination } from "./index";

/** The channel orders go over. */
const CHANNEL = "control";
/** How soon a subscription that could not be made (Redis out of reach at start) is tried again. */
const RETRY_MS = 2_000;

/** Applies one kind of order here; its payload is what the sender passed to `send`. */
export type ControlHandler = (payload: unknown) => Promise<void> | void;

interface Order {
  from: string;
  kind: string;
  payload: unknown;
}

/** This process's end of the `control` channel over a coordination. */
export class ClusterControl {
  private readonly handlers = new Map<string, ControlHandler>();
  /** This end's id, so it skips its own orders (the sender applied them already). */
  private readonly id = randomUUID();
  private subscription: Promise<() => Promise<void>> | null = null;
  private retry: NodeJS.Timeout | null = null;
  private closed = false;
  private subscribed!: () => void;
  /** Resolves once this end hears the channel (at once in single-node mode, where there is nothing to hear). */
  readonly ready: Promise<void>;

  /** An end over `coordination` (the process's own in the app; tests pass one per "replica"). */
  constructor(private readonly coordination: Coordination) {
    this.ready = new Promise((resolve) => {
      this.subscribed = resolve;
    });
    if (!coordination.clustered) this.subscribed();
  }

  /** Apply orders of `kind` sent by other replicas with `handler` (the last one registered for a kind wins). */
  on(kind: string, handler: ControlHandler): void {
    this.handlers.set(kind, handler);
    if (this.coordination.clustered) this.listen();
  }

  /** Tell every other replica to apply `kind` with `payload`; resolves once sent, or once the failure is logged. */
  async send(kind: string, payload: unknown): Promise<void> {
    if (!this.coordination.clustered) return;
    const order: Order = { from: this.id, kind, payload };
    try {
      await this.coordination.publish(CHANNEL, JSON.stringify(order));
    } catch (error) {
      console.warn(`[switchboard] "${kind}" not sent to the other replicas:`, describe(error));
    }
  }

  /** Stop hearing the channel (a test's "replica" going away); never waits on a Redis outage. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const subscription = this.subscription;
    this.subscription = null;
    subscription?.then((unsubscribe) => unsubscribe()).catch(() => {});
  }

  /** Subscribe once; a failure (Redis not up yet) is tried again until it works or the end closes. */
  private listen(): void {
    if (this.subscription || this.retry || this.closed) return;
    const subscription = this.coordination.subscribe(CHANNEL, (message) => this.received(message));
    this.subscription = subscription;
    subscription.then(
      () => this.subscribed(),
      (error) => {
        console.warn("[switchboard] the control channel is not heard yet:", describe(error));
        this.subscription = null;
        if (this.closed) return;
        this.retry = setTimeout(() => {
          this.retry = null;
          this.listen();
        }, RETRY_MS);
        this.retry.unref();
      },
    );
  }

  private received(message: string): void {
    let order: Order;
    try {
      order = JSON.parse(message) as Order;
    } catch {
      console.warn("[switchboard] an unreadable order on the control channel");
      return;
    }
    if (order.from === this.id) return;
    const handler = this.handlers.get(order.kind);
    if (!handler) return;
    Promise.resolve()
      .then(() => handler(order.payload))
      .catch((error) => console.error(`[switchboard] applying "${order.kind}" from another replica failed:`, describe(error)));
  }
}

/** An error for the log: its message, secrets masked, cut short. */
function describe(error: unknown): string {
  return redact(String((error as Error)?.message ?? error)).slice(0, 200);
}

/** This process's end of the control channel, over the process's coordination. */
export function clusterControl(): ClusterControl {
  return singleton("cluster.control", () => new ClusterControl(coordination()));
}
