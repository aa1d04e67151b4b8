"use client";

import { createContext, useContext, useEffect } from "react";

/** The cookie naming the workspace page last opened in this browser (a navigation hint, never an authorization). */
export const LAST_WORKSPACE_COOKIE = "switchboard-workspace";

const WorkspaceSlug = createContext<string | null>(null);

/**
 * The workspace of the `/w/<slug>` pages below it: components read its slug (`useWorkspaceSlug`)
 * and build every API URL with it (`/api/w/<slug>/…`, api-client.ts), so fetches, links, images
 * and downloads all act on the workspace of the page they are on, and two tabs never mix.
 */
export function WorkspaceScope({ slug, children }: { slug: string; children: React.ReactNode }) {
  useEffect(() => {
    // Where `/servers` and friends go back to when nothing else names a workspace (the OAuth
    // callback returns there from the authorization server).
    // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser the app supports.
    document.cookie = `${LAST_WORKSPACE_COOKIE}=${encodeURIComponent(slug)}; path=/; samesite=lax`;
  }, [slug]);
  return <WorkspaceSlug.Provider value={slug}>{children}</WorkspaceSlug.Provider>;
}

/** The slug of the page's workspace; only components under a `/w/<slug>` page may ask. */
export function useWorkspaceSlug(): string {
  const slug = useContext(WorkspaceSlug);
  if (slug === null) throw new Error("useWorkspaceSlug outside a workspace page (WorkspaceScope).");
  return slug;
}

/** The URL of page `path` (`servers`, `chat/<id>`, …) of workspace `slug`. */
export function workspaceHref(slug: string, path: string): string {
  return `/w/${encodeURIComponent(slug)}/${path}`;
}
