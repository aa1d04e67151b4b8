"use client";

import type { ServerStatusView } from "../api-client";
import { OAuthConnect } from "../servers/oauth-connect";

/**
 * The servers that need the user's authorization, named once above the chat with Connect, instead
 * of "X is left out of this answer" under every answer (the chat quiets those notices).
 */
export function AuthorizationBanner({ servers }: { servers: ServerStatusView[] }) {
  if (servers.length === 0) return null;
  return (
    <div
      data-testid="authorization-banner"
      className="space-y-1 border-b border-amber-300 bg-amber-50 px-4 py-2 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
    >
      {servers.map((s) => (
        <p key={s.serverId} className="flex flex-wrap items-center gap-2" data-testid={`authorization-needed-${s.serverName}`}>
          <span>
            <strong>{s.serverName}</strong> {s.stepUp ? "needs a wider authorization" : "needs your authorization"}: its tools are left out
            of this chat until you connect.
          </span>
          <OAuthConnect serverId={s.serverId} state={s.state} />
        </p>
      ))}
    </div>
  );
}
