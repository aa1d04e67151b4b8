/**
 * The web app's side of losing access (see lib/domain/access-effects.ts): withdraw pending server
 * requests and open approvals, close live connections and stop running turns on every replica
 * (lib/use-cases/cluster-control.ts), revoke and forget tokens through the OAuth store.
 */
import "server-only";
import { appOAuthDeps } from "../runtime/oauth-deps";
import { disconnect } from "../oauth/web/flow";
import type { AccessEffects } from "../domain/access-effects";
import { getDb } from "../../db/client";
import { everywhereEffects } from "./cluster-control";
import { withdrawingEffects } from "./withdraw-requests";

/** The effects wired to the pools and turns of every replica (this one's first) and the OAuth store. */
export function appAccessEffects(): AccessEffects {
  return withdrawingEffects(getDb(), {
    ...everywhereEffects(),
    async forgetTokens(userId, servers) {
      // Sequential: each revocation is a request to an authorization server; keep the load polite.
      for (const server of servers) await disconnect(appOAuthDeps(), userId, server);
    },
  });
}
