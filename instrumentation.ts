/**
 * Next runs `register` once when the server starts. On Node it installs the front door
 * (lib/lane/front-door.ts) and the direct lane (lib/lane/direct-lane.ts) that the app's HTTP server
 * (scripts/server.mjs) consults, in that order, before Next (with the OAuth authorization server of
 * lib/use-cases/oauth-server.ts in front of the lane), and the signal handlers that drain and
 * stop the server (lib/runtime/app-shutdown.ts); then it starts OpenTelemetry when an
 * OTLP endpoint is configured (lib/telemetry/sdk.ts, docs/telemetry.md). The front door comes first
 * so that a telemetry set-up that throws (a bad exporter setting) cannot leave the app serving
 * without it.
 */
/** `SWITCHBOARD_SKIP_REPLICA_CHECK=1`: a test's second server comparing routes on one database. */
function skipReplicaCheck(): boolean {
  return process.env.SWITCHBOARD_SKIP_REPLICA_CHECK === "1";
}

export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const [{ installFrontDoor }, { installDirectLane }, { DIRECT_ROUTES }, { requireWorkspace }] = await Promise.all([
    import("./lib/lane/front-door"),
    import("./lib/lane/direct-lane"),
    import("./app/_direct/routes"),
    import("./lib/use-cases/caller"),
  ]);
  installFrontDoor();
  // The lane checks each caller with the guard the routes use, and hands the caller to the route.
  installDirectLane(DIRECT_ROUTES, requireWorkspace);
  // The OAuth authorization server of the MCP gateway (/oauth/…, its well-known documents), on node
  // req/res in front of the lane: oidc-provider is a koa application, not a route (docs/gateway.md).
  const [{ putInFrontOfLane }, { serveOAuthServer }] = await Promise.all([
    import("./lib/lane/direct-lane"),
    import("./lib/use-cases/oauth-server"),
  ]);
  putInFrontOfLane(serveOAuthServer);
  // The stop from the start, not from the engine's first use: a SIGTERM before any MCP request
  // still drains (readiness 503, the grace, then the close).
  const { installAppShutdown } = await import("./lib/runtime/app-shutdown");
  installAppShutdown();
  // This replica's heartbeat: the others give up the work it held once it lapses (lib/cluster/replicas.ts).
  const { startHeartbeat } = await import("./lib/cluster/replicas");
  startHeartbeat();
  // The replica registry: a second server on this database without cluster mode, or of another
  // build, stops here with one line naming the fix (docs/deployment.md#cluster-mode).
  if (!skipReplicaCheck()) {
    const { joinInstance } = await import("./lib/runtime/replica-registry");
    await joinInstance().catch((error: unknown) => {
      console.error(`switchboard: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    });
  }
  // Orders from the other replicas (a removed member's connections and turns, a released server)
  // are heard from the start, not from this replica's first use of them (lib/cluster/control.ts).
  const { clustered } = await import("./lib/cluster");
  if (clustered()) {
    const { startClusterControl } = await import("./lib/use-cases/cluster-control");
    startClusterControl();
    // Calls forwarded by the other replicas to the stdio sandboxes this one runs, before the lane and
    // Next (lib/use-cases/sandbox-hop.ts); the route at the same path serves them under `next dev`.
    const [{ putInFrontOfLane }, { serveSandboxHopOn }] = await Promise.all([
      import("./lib/lane/direct-lane"),
      import("./lib/use-cases/sandbox-hop"),
    ]);
    putInFrontOfLane(serveSandboxHopOn);
  }
  // Cluster mode: hear Stop for this replica's turns and keep the answers of turns whose replica died
  // (lib/runtime/shared-turns.ts), even when nobody has their chat open. Nothing in single-node mode.
  const { startSharedTurns } = await import("./lib/runtime/shared-turns");
  startSharedTurns();
  // Expiry of old rows (sessions, password resets, leases): each replica schedules it, one per round
  // runs it (a lease; lib/runtime/row-expiry.ts).
  const { scheduleRowExpiry } = await import("./lib/runtime/row-expiry");
  scheduleRowExpiry();
  // Traces and OTLP metrics only when an OTLP endpoint is set; otherwise nothing of the SDK loads.
  const { startAppTelemetry } = await import("./lib/runtime/telemetry");
  await startAppTelemetry();
}
