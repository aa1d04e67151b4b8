/**
 * The app server's stop, installed when the server starts (instrumentation.ts) and again, harmlessly,
 * by the engine's first use: on SIGTERM or SIGINT the readiness check answers 503 at once, the server
 * keeps serving for `SWITCHBOARD_SHUTDOWN_GRACE_SECONDS`, then stops taking connections, closes every
 * MCP connection (no sandboxed child may outlive it) and writes what waits (lib/shutdown.ts).
 */
import { closeGlobalPool } from "../mcp";
import { shutdownGraceMs } from "../env";
import { closeOnSignals } from "../shutdown";

/** Install the app's signal handlers (once per process). */
export function installAppShutdown(): void {
  closeOnSignals(closeGlobalPool, { graceMs: shutdownGraceMs() });
}
