"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { isSafeLinkUrl } from "@/lib/net/safe-link";
import { ApiError, disconnectOAuth, startOAuth, type WorkspaceSlug } from "../api-client";
import { Button } from "../ui/primitives/button";
import { useWorkspaceSlug } from "../workspaces/workspace-scope";

/** Fired on `window` after Connect or Disconnect changed a server's authorization (detail: `{serverId}`). */
export const OAUTH_CHANGED_EVENT = "switchboard:oauth-changed";

/**
 * Connect / Disconnect for a remote server that needs OAuth. Connect sends the browser to the
 * authorization server; the callback brings it back to the Servers page, connected. With
 * `forEveryone` (a shared server, shown to owners and admins) it connects the caller's account for
 * every member, stored apart from their own tokens, and Disconnect ends that account's use.
 */
export function OAuthConnect({ serverId, state, forEveryone = false }: { serverId: string; state: string; forEveryone?: boolean }) {
  const router = useRouter();
  const ws = useWorkspaceSlug();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  function changed() {
    window.dispatchEvent(new CustomEvent(OAUTH_CHANGED_EVENT, { detail: { serverId } }));
    router.refresh();
  }

  async function post<T>(call: (ws: WorkspaceSlug, serverId: string) => Promise<T>): Promise<T | null> {
    setBusy(true);
    setError(null);
    try {
      return await call(ws, serverId);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setError(error.message);
      return null;
    } finally {
      setBusy(false);
    }
  }

  async function connect() {
    const body = await post((ws, id) => startOAuth(ws, id, { forEveryone }));
    if (!body) return;
    if (body.status === "redirect") {
      if (typeof body.url !== "string" || !isSafeLinkUrl(body.url))
        return setError("The authorization URL is not an http(s) link; refused.");
      setBusy(true);
      window.location.assign(body.url);
      return;
    }
    changed();
  }

  async function disconnect() {
    if (await post(disconnectOAuth)) changed();
  }

  return (
    <span className="inline-flex items-center gap-2" data-testid={forEveryone ? `oauth-everyone-${serverId}` : `oauth-${serverId}`}>
      {state === "connected" ? (
        <Button type="button" variant="secondary" size="sm" onClick={disconnect} disabled={busy}>
          {forEveryone ? "Disconnect for everyone" : "Disconnect"}
        </Button>
      ) : (
        <Button type="button" size="sm" onClick={connect} disabled={busy}>
          {busy ? "Connecting…" : forEveryone ? "Connect for everyone" : "Connect"}
        </Button>
      )}
      {error && (
        <span role="alert" className="text-destructive">
          {error}
        </span>
      )}
    </span>
  );
}
