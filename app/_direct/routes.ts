/**
 * The routes served on the direct lane (lib/lane/direct-lane.ts): the same handlers Next serves at
 * these paths, reached without Next's router. Only paths on the hot path of a tool call belong here.
 * Each is also served at its workspace-scoped form (`/api/w/<slug>/…`): the lane takes the workspace
 * off the path before matching these patterns (lib/workspaces/api-path.ts).
 */
import type { DirectRoute, RouteHandler } from "@/lib/lane/direct-lane";
import { POST as callTool } from "../api/servers/[id]/tools/call/route";

/** Method, path and handler of each direct route. */
export const DIRECT_ROUTES: DirectRoute[] = [
  { method: "POST", pattern: /^\/api\/servers\/(?<id>[^/]+)\/tools\/call$/, handler: callTool as RouteHandler },
];
