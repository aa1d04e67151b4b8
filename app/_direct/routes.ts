/**
 * The routes served on the direct lane (lib/lane/direct-lane.ts), by the path Next serves each at:
 * every route module that exports `lane`. Written by tools/lane-table.mjs; do not edit (the unit
 * test tests/unit/lane/lane-table.test.ts fails when it is out of date). Each is also served at its
 * workspace-scoped form (`/api/w/<slug>/…`, lib/workspaces/api-path.ts).
 */
import { laneTable } from "@/lib/lane/lane-table";
import * as route0 from "../api/servers/[id]/tools/call/route";
import * as route1 from "../mcp/[slug]/[server]/route";
import * as route2 from "../mcp/[slug]/route";

/** Method, path pattern and lane handler of each direct route. */
export const DIRECT_ROUTES = laneTable({
  "/api/servers/[id]/tools/call": route0,
  "/mcp/[slug]/[server]": route1,
  "/mcp/[slug]": route2,
});
