/**
 * Workspace-scoped API paths (docs/workspaces.md#which-workspace-a-request-works-on): every route
 * that acts inside one workspace is also served at `/api/w/<slug>/<route>`, so links, images,
 * downloads and forms name the workspace of the page they are on. proxy.ts and the direct lane
 * (lib/lane/direct-lane.ts) turn such a path into the route's own path plus `WORKSPACE_PATH_HEADER`.
 * Pure: no Next, no database.
 */

/**
 * The header that carries the path's slug to the route (`requireWorkspace`). Set only by proxy.ts
 * and the direct lane, which drop any copy a client sent; it grants nothing by itself (membership
 * is checked on the slug like any other way of naming a workspace).
 */
export const WORKSPACE_PATH_HEADER = "x-switchboard-path-workspace";

/**
 * The routes under `app/api/` that call `requireWorkspace`, as their folder paths (`[x]`: one path
 * segment). Only these are served under `/api/w/<slug>/`: a user-wide route (events, pending,
 * account, workspaces) named under a workspace would ignore it, so it is left unrouted (404).
 */
export const WORKSPACE_ROUTES = [
  "apps/call",
  "apps/context",
  "apps/requests",
  "apps/resource",
  "catalog",
  "catalog/[id]/add",
  "chat",
  "chat/[id]/stream",
  "chats",
  "chats/[id]",
  "mcp/reload",
  "mcp/status",
  "oauth/disconnect",
  "oauth/start",
  "servers",
  "servers/[id]",
  "servers/[id]/catalog-update",
  "servers/[id]/complete",
  "servers/[id]/icon",
  "servers/[id]/info",
  "servers/[id]/logs",
  "servers/[id]/logs/level",
  "servers/[id]/member-values",
  "servers/[id]/prompts",
  "servers/[id]/prompts/get",
  "servers/[id]/reconnect",
  "servers/[id]/resources",
  "servers/[id]/resources/read",
  "servers/[id]/resources/subscribe",
  "servers/[id]/status",
  "servers/[id]/tools",
  "servers/[id]/tools/call",
  "servers/[id]/tools/review",
  "servers/[id]/trust",
  "servers/export",
  "servers/import",
  "servers/test",
  "settings/catalog",
  "settings/model",
  "settings/model/test",
  "settings/tool-policies",
  "tools/held",
] as const;

const ROUTES = WORKSPACE_ROUTES.map((route) => route.split("/"));
const PREFIX = "/api/w/";

/** A workspace-scoped path taken apart: the workspace's slug and the route's own path. */
export interface WorkspacePath {
  slug: string;
  /** The route's path without the workspace (`/api/servers/…`), still percent-encoded. */
  pathname: string;
}

/**
 * `/api/w/<slug>/<route>` → `{slug, pathname: "/api/<route>"}` for a route of `WORKSPACE_ROUTES`;
 * null for any other path (including a malformed slug or a route that is not workspace-scoped).
 */
export function splitWorkspacePath(pathname: string): WorkspacePath | null {
  if (!pathname.startsWith(PREFIX)) return null;
  const rest = pathname.slice(PREFIX.length);
  const cut = rest.indexOf("/");
  if (cut <= 0) return null;
  const slug = decoded(rest.slice(0, cut));
  const segments = rest.slice(cut + 1).split("/");
  if (!slug || !ROUTES.some((route) => matches(route, segments))) return null;
  return { slug, pathname: `/api/${segments.join("/")}` };
}

/**
 * Headers for the route: whatever the client sent as `WORKSPACE_PATH_HEADER` is dropped (only the
 * path may name the path's workspace), then the path's slug is set when there is one.
 */
export function withPathWorkspace(headers: Headers, slug: string | null): Headers {
  headers.delete(WORKSPACE_PATH_HEADER);
  if (slug) headers.set(WORKSPACE_PATH_HEADER, slug);
  return headers;
}

function matches(route: string[], segments: string[]): boolean {
  if (route.length !== segments.length) return false;
  return route.every((part, i) => (part.startsWith("[") ? segments[i] !== "" : part === segments[i]));
}

function decoded(segment: string): string | null {
  try {
    const slug = decodeURIComponent(segment);
    // Slugs are lower-case words and dashes (lib/workspaces/slug.ts); anything else names no workspace.
    return /^[A-Za-z0-9._~-]{1,100}$/.test(slug) ? slug : null;
  } catch {
    return null;
  }
}
