/**
 * Next runs `register` once when the server starts. On Node it installs the direct lane
 * (lib/host/direct-lane.ts) that the app's HTTP server (scripts/server.mjs) consults first.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const [{ installDirectLane }, { DIRECT_ROUTES }] = await Promise.all([import("./lib/host/direct-lane"), import("./app/_direct/routes")]);
  installDirectLane(DIRECT_ROUTES);
}
