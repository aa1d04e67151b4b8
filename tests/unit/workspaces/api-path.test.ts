/**
 * Workspace-scoped API paths: `/api/w/<slug>/<route>` is taken apart only for the routes that act
 * in a workspace, the list of those routes is exactly the routes that call `requireWorkspace`, and
 * a client's own copy of the internal header never survives.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { splitWorkspacePath, WORKSPACE_PATH_HEADER, WORKSPACE_ROUTES, withPathWorkspace } from "@/lib/workspaces/api-path";

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}

describe("splitWorkspacePath", () => {
  it.each([
    ["/api/w/acme/servers", { slug: "acme", pathname: "/api/servers" }],
    ["/api/w/personal/servers/export", { slug: "personal", pathname: "/api/servers/export" }],
    ["/api/w/acme-2/servers/abc-123/tools/call", { slug: "acme-2", pathname: "/api/servers/abc-123/tools/call" }],
    ["/api/w/acme/servers/abc/icon", { slug: "acme", pathname: "/api/servers/abc/icon" }],
    ["/api/w/acme/chat/c1/stream", { slug: "acme", pathname: "/api/chat/c1/stream" }],
    ["/api/w/acme/settings/tool-policies", { slug: "acme", pathname: "/api/settings/tool-policies" }],
    ["/api/w/acme/settings/model", { slug: "acme", pathname: "/api/settings/model" }],
    ["/api/w/ac%6De/mcp/status", { slug: "acme", pathname: "/api/mcp/status" }],
  ])("%s → the route and the slug", (input, expected) => {
    expect(splitWorkspacePath(input)).toEqual(expected);
  });

  it.each([
    ["/api/servers", "no workspace in the path"],
    ["/w/acme/servers", "a page, not the API"],
    ["/api/w/acme", "no route"],
    ["/api/w//servers", "an empty slug"],
    ["/api/w/acme/events", "a user-wide route"],
    ["/api/w/acme/pending", "a user-wide route"],
    ["/api/w/acme/workspaces", "workspaces name themselves by id"],
    ["/api/w/acme/servers/abc/nope", "no such route"],
    ["/api/w/acme/servers//tools", "an empty id"],
    ["/api/w/%E0%A4%A/servers", "a malformed escape"],
    ["/api/w/a%20b/servers", "a slug no workspace can have"],
    ["/api/w/acme/w/other/servers", "a nested workspace"],
  ])("%s → null (%s)", (input) => {
    expect(splitWorkspacePath(input)).toBeNull();
  });
});

describe("WORKSPACE_ROUTES", () => {
  it("lists exactly the routes that resolve their workspace with requireWorkspace", () => {
    const scoped = routeFiles("app/api")
      .filter((file) => /\brequireWorkspace\(/.test(fs.readFileSync(file, "utf8")))
      .map((file) => path.dirname(path.relative("app/api", file)).split(path.sep).join("/"))
      .sort();
    expect(scoped.length).toBeGreaterThan(30);
    expect([...WORKSPACE_ROUTES].sort()).toEqual(scoped);
  });
});

describe("withPathWorkspace", () => {
  it("drops a client's own copy of the header and sets the path's slug", () => {
    const spoofed = new Headers({ [WORKSPACE_PATH_HEADER]: "victim", cookie: "k=v" });
    expect(withPathWorkspace(spoofed, null).has(WORKSPACE_PATH_HEADER)).toBe(false);
    expect(spoofed.get("cookie")).toBe("k=v");
    const named = new Headers({ [WORKSPACE_PATH_HEADER]: "victim" });
    expect(withPathWorkspace(named, "acme").get(WORKSPACE_PATH_HEADER)).toBe("acme");
  });
});
