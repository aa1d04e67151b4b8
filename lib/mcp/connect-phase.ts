/**
 * While a connect runs, everything the server sends answers the connect (probe, initialize, the
 * lists): a message a cap discarded without a readable id fails the connect at once with the
 * cap's message instead of leaving it to wait out `connect_timeout`. After the connect, such a
 * message fails no request (a guess would fail an unrelated call).
 */
import { EngineError, MESSAGE_TOO_LARGE_RPC_CODE } from "./errors";
import type { ConnectionGuard } from "./limits";
import type { ChildProcessTransport } from "./stdio-transport";

/** The connect's failure by a cap, raced against the connect itself. */
export class ConnectPhase {
  /** Rejects with the cap's error when a discarded message answered nothing nameable. */
  readonly failed: Promise<never>;
  private reject!: (error: EngineError) => void;
  private open = true;

  constructor(private readonly serverName: string) {
    this.failed = new Promise<never>((_, reject) => (this.reject = reject));
    this.failed.catch(() => undefined); // raced; unobserved once the connect settled first
  }

  /** Watch a stdio child's discards. */
  watchChild(transport: ChildProcessTransport): void {
    transport.onUnattributedDiscard = (code, message) =>
      this.fail(code === MESSAGE_TOO_LARGE_RPC_CODE ? "message_too_large" : "limit_exceeded", message);
  }

  /** Watch the HTTP limits' refusals (event streams). */
  watchGuard(guard: ConnectionGuard): void {
    guard.onUnattributedRefusal = (reason) => this.fail("limit_exceeded", reason);
  }

  /** The connect settled: later discards fail no connect. */
  end(): void {
    this.open = false;
  }

  private fail(code: "message_too_large" | "limit_exceeded", message: string): void {
    if (this.open) this.reject(new EngineError(code, `server "${this.serverName}": ${message}`));
  }
}
