"use client";

import { useEffect } from "react";

const HEADER = "x-workspace-id";
/** The cookie naming the workspace page last opened in this browser (a navigation hint, never an authorization). */
export const LAST_WORKSPACE_COOKIE = "switchboard-workspace";
const slot = globalThis as { __switchboardWorkspace?: { id: string; original: typeof fetch } };

/**
 * Names the page's workspace on every API call made from it: same-origin `/api/` requests get the
 * `x-workspace-id` header unless they set one. Installed once per tab by the `/w/<slug>` layout,
 * so two tabs in two workspaces never mix, whichever component issues the request (the chat
 * transport, server cards, settings forms).
 */
export function WorkspaceScope({ workspaceId, slug }: { workspaceId: string; slug: string }) {
  useEffect(() => {
    // Where `/servers` and friends go back to when nothing else names a workspace (the OAuth
    // callback returns there from the authorization server, which sends no useful Referer).
    // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser the app supports.
    document.cookie = `${LAST_WORKSPACE_COOKIE}=${encodeURIComponent(slug)}; path=/; samesite=lax`;
    const original = slot.__switchboardWorkspace?.original ?? window.fetch.bind(window);
    slot.__switchboardWorkspace = { id: workspaceId, original };
    window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input), window.location.href);
      if (url.origin !== window.location.origin || !url.pathname.startsWith("/api/")) return original(input, init);
      const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
      if (!headers.has(HEADER)) headers.set(HEADER, workspaceId);
      return original(input, { ...init, headers });
    };
    return () => {
      window.fetch = original;
      slot.__switchboardWorkspace = undefined;
    };
  }, [workspaceId, slug]);
  return null;
}
