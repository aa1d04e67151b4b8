/**
 * The app server's stop, installed when the server starts (instrumentation.ts) and again, harmlessly,
 * by the engine's first use: on SIGTERM or SIGINT the readiness check answers 503 at once, the server
 * keeps serving for `SWITCHBOARD_SHUTDOWN_GRACE_SECONDS`, then stops taking connections, closes every
 * MCP connection (no sandboxed child may outlive it; the questions waiting on them are withdrawn
 * first: lib/runtime/question-desk.ts) and writes what waits (lib/shutdown.ts).
 */
import { closeGlobalPool } from "../mcp";
import { shutdownGraceMs } from "../env";
import { closeOnSignals } from "../shutdown";
import { peekSingleton } from "../singleton";
import { QUESTION_DESK, type QuestionDesk } from "./question-desk";

/** Install the app's signal handlers (once per process). */
export function installAppShutdown(): void {
  closeOnSignals(
    async () => {
      // Questions waiting on this replica's connections are withdrawn first, with a clear reason for
      // their users, while the database is still open; then the connections close.
      await peekSingleton<QuestionDesk>(QUESTION_DESK)?.shutdown();
      await closeGlobalPool();
    },
    { graceMs: shutdownGraceMs() },
  );
}
