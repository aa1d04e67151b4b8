import { requireUser } from "@/lib/auth/session";
import { AppError } from "@/lib/errors";
import { afterAuthorized, callbackServer } from "@/lib/use-cases/oauth-connect";
import { appOAuthDeps, oauthRequestOrigin } from "@/lib/runtime/oauth-deps";
import { oauthCallbackResponse } from "@/lib/oauth/web/callback";

/**
 * The authorization server sends the browser here. The state must be the signed-in user's own,
 * unused and fresh; then the code is exchanged and the server reconnected for this user. The
 * server may be in any workspace the user belongs to (the redirect carries no workspace).
 */
export async function GET(request: Request): Promise<Response> {
  const user = await requireUser().catch((error: unknown) => {
    if (error instanceof AppError && error.code === "auth.unauthorized") return null;
    throw error;
  });
  // The code was issued for the redirect URI on this origin: the exchange must name the same one.
  return oauthCallbackResponse(appOAuthDeps(oauthRequestOrigin(request)), {
    url: new URL(request.url),
    userId: user?.id ?? null,
    findServer: (serverId, forEveryone) => callbackServer(user?.id ?? null, serverId, forEveryone),
    onAuthorized: async (server, grant) => {
      if (user) await afterAuthorized(user.id, server, grant);
    },
  });
}
