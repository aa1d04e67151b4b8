/**
 * The web app's side of losing access (see lib/workspaces/effects.ts): withdraw pending server
 * requests and open approvals, close live connections in the process-wide pool, revoke and forget
 * tokens through the OAuth store, stop running turns.
 */
import "server-only";
import { appOAuthDeps } from "../runtime/oauth-deps";
import { disconnect } from "../oauth/web/flow";
import type { AccessEffects } from "../domain/access-effects";
import { getDb } from "../../db/client";
import { appPool } from "../runtime/engine";
import { stopTurns } from "../runtime/turns";
import { withdrawingEffects } from "./withdraw-requests";

/** The effects wired to this process's pool, OAuth store and turns. */
export function appAccessEffects(): AccessEffects {
  return withdrawingEffects(getDb(), {
    async closeConnections(userId, serverIds) {
      const pool = appPool();
      if (userId) await pool.closeUser(userId, serverIds);
      else await Promise.all((serverIds ?? []).map((id) => pool.closeServer(id)));
    },
    async forgetTokens(userId, servers) {
      // Sequential: each revocation is a request to an authorization server; keep the load polite.
      for (const server of servers) await disconnect(appOAuthDeps(), userId, server);
    },
    async stopTurns(userId, workspaceId) {
      stopTurns(userId, workspaceId);
    },
  });
}
