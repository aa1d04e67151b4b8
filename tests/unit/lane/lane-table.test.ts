/**
 * The direct lane's table is derived, never kept by hand: app/_direct/routes.ts is what
 * tools/lane-table.mjs writes from the route modules that export `lane`, so a route module that says
 * lane is served and the table names no module that does not; each path pattern comes from the
 * module's own folder path.
 */
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { laneTable, pathPattern } from "@/lib/lane/lane-table";
import { laneRoutes, TABLE_FILE, tableSource } from "../../../tools/lane-table.mjs";

const handle = async () => ({ body: null });

describe("the lane table", () => {
  it("is what tools/lane-table.mjs writes (run it after adding or removing a route's `lane`)", () => {
    expect(fs.readFileSync(TABLE_FILE, "utf8")).toBe(tableSource());
  });

  it("serves every route module that declares `lane`, and only those", () => {
    const routes = laneRoutes();
    expect(routes.map((route) => route.path)).toContain("/api/servers/[id]/tools/call");
    for (const route of routes) expect(fs.readFileSync(route.file, "utf8")).toMatch(/^export const lane\b/m);
    const table = fs.readFileSync(TABLE_FILE, "utf8");
    const named = [...table.matchAll(/^ {2}"([^"]+)": route\d+,$/gm)].map((match) => match[1]);
    expect(named).toEqual(routes.map((route) => route.path));
  });

  it("names each module by its URL: route groups left out, private folders not routes", () => {
    const source = tableSource([{ file: "app/(group)/api/x/[id]/route.ts", path: "/api/x/[id]" }]);
    expect(source).toContain('import * as route0 from "../(group)/api/x/[id]/route";');
    expect(source).toContain('  "/api/x/[id]": route0,');
  });

  it("refuses a module that does not declare `lane`, or serves a method on the lane that Next does not", () => {
    expect(() => laneTable({ "/api/a": { POST: () => undefined } })).toThrow(/exports no `lane`/);
    expect(() => laneTable({ "/api/a": { lane: { POST: { handle } }, GET: () => undefined } })).toThrow(
      /serves POST on the lane but not for Next/,
    );
  });

  it("matches the path Next serves: one segment per [name], everything else literal", () => {
    const pattern = pathPattern("/api/servers/[id]/tools/call");
    expect(pattern.exec("/api/servers/s%201/tools/call")?.groups).toEqual({ id: "s%201" });
    expect(pattern.test("/api/servers/a/b/tools/call")).toBe(false);
    expect(pattern.test("/api/servers/a/tools/call/")).toBe(false);
    expect(pathPattern("/api/x.json").test("/api/xajson")).toBe(false);
    expect(() => pathPattern("/api/[...rest]")).toThrow(/only \[name\] segments/);
  });

  it("builds one route per lane method, with the module's path", () => {
    const [route] = laneTable({ "/api/servers/[id]/tools/call": { lane: { POST: { handle } }, POST: () => undefined } });
    expect(route).toMatchObject({ method: "POST", path: "/api/servers/[id]/tools/call" });
    expect(route.pattern.test("/api/servers/x/tools/call")).toBe(true);
  });
});
