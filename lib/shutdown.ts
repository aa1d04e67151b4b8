/**
 * Process shutdown for hosts of the engine (the web app, the command line): on SIGTERM or SIGINT,
 * close every MCP connection (no stdio child may outlive the process), then exit as the signal would
 * have. The engine itself installs no signal handlers: a library must not decide how its host exits.
 */

const INSTALLED = Symbol.for("switchboard.shutdownHandlers");
/** Longest wait for connections to close before exiting anyway. */
const FORCE_EXIT_MS = 10_000;
/** Longest wait for the requests under way (tool calls) to be answered once no new ones are taken. */
const FINISH_REQUESTS_MS = 5_000;

const HOOKS = Symbol.for("switchboard.shutdownHooks");
const DRAINING = Symbol.for("switchboard.draining");
// Installed by scripts/server.mjs: stop taking new connections (the HTTP server's close).
const STOP_ACCEPTING = Symbol.for("switchboard.stopAccepting");

/**
 * Whether this process has begun to shut down: its readiness check (`GET /api/health/ready`) then
 * answers 503, so a load balancer sends new requests to the other replicas.
 */
export function isDraining(): boolean {
  return (globalThis as { [DRAINING]?: boolean })[DRAINING] === true;
}

/** Mark the process as shutting down (the first step of a signal's shutdown). */
export function beginDraining(): void {
  (globalThis as { [DRAINING]?: boolean })[DRAINING] = true;
}

// Work that must finish after the connections closed and before the process exits (the database:
// the audit entries waiting to be written on Postgres, then its pool), by name: one each.
function hooks(): Map<string, () => Promise<void>> {
  const slots = globalThis as { [HOOKS]?: Map<string, () => Promise<void>> };
  slots[HOOKS] ??= new Map();
  return slots[HOOKS];
}

/** Run `hook` (awaited) on a signal's shutdown, after `close`; a later registration under `name` replaces it. */
export function onShutdown(name: string, hook: () => Promise<void>): void {
  hooks().set(name, hook);
}

/** `close`, then every `onShutdown` hook in turn; a failing step does not stop the next. */
async function shutDown(close: () => Promise<void>): Promise<void> {
  await close().catch(() => {});
  for (const hook of hooks().values()) await hook().catch(() => {});
}

/**
 * Install the handlers once per process. On a signal: the readiness check answers 503 at once; after
 * `graceMs` (the web server's `SWITCHBOARD_SHUTDOWN_GRACE_SECONDS`: time for a load balancer to see
 * that and send new requests elsewhere, while this process still serves) the HTTP server stops taking
 * connections and waits up to 5 s for the requests under way to be answered (a running tool call
 * finishes), `close` ends every MCP connection, then the `onShutdown` hooks run, and the process exits.
 */
export function closeOnSignals(close: () => Promise<void>, options: { graceMs?: number } = {}): void {
  const slots = globalThis as { [INSTALLED]?: boolean };
  if (slots[INSTALLED]) return;
  slots[INSTALLED] = true;
  const graceMs = options.graceMs ?? 0;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      beginDraining();
      const exitCode = 128 + (signal === "SIGINT" ? 2 : 15);
      const force = setTimeout(() => process.exit(exitCode), graceMs + FINISH_REQUESTS_MS + FORCE_EXIT_MS);
      force.unref();
      const stop = async () => {
        if (graceMs > 0) await new Promise((resolve) => setTimeout(resolve, graceMs));
        // Requests under way (a tool call) are answered before the MCP connections close, within a bound.
        await (globalThis as { [STOP_ACCEPTING]?: (boundMs: number) => unknown })[STOP_ACCEPTING]?.(FINISH_REQUESTS_MS);
        await shutDown(close);
      };
      void stop().finally(() => process.exit(exitCode));
    });
  }
}
