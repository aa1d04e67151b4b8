/**
 * Process shutdown for hosts of the engine (the web app, the command line): on SIGTERM or SIGINT,
 * close every MCP connection (no stdio child may outlive the process), then exit as the signal would
 * have. The engine itself installs no signal handlers: a library must not decide how its host exits.
 */

const INSTALLED = Symbol.for("switchboard.shutdownHandlers");
/** Longest wait for connections to close before exiting anyway. */
const FORCE_EXIT_MS = 10_000;

/** Install the handlers once per process; `close` ends every connection. */
export function closeOnSignals(close: () => Promise<void>): void {
  const slots = globalThis as { [INSTALLED]?: boolean };
  if (slots[INSTALLED]) return;
  slots[INSTALLED] = true;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      const exitCode = 128 + (signal === "SIGINT" ? 2 : 15);
      const force = setTimeout(() => process.exit(exitCode), FORCE_EXIT_MS);
      force.unref();
      void close().finally(() => process.exit(exitCode));
    });
  }
}
