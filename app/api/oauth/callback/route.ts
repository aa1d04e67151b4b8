import { getDb } from "@/db/client";
import { getServerById, toServerDefinition } from "@/db/queries/servers";
import { requireUser } from "@/lib/auth/session";
import { AppError } from "@/lib/errors";
import { appPool } from "@/lib/host/engine";
import { appOAuthDeps } from "@/lib/oauth/app-deps";
import { oauthCallbackResponse } from "@/lib/oauth/callback";

/**
 * The authorization server sends the browser here. The state must be the signed-in user's own,
 * unused and fresh; then the code is exchanged and the server reconnected for this user.
 */
export async function GET(request: Request): Promise<Response> {
  const user = await requireUser().catch((error: unknown) => {
    if (error instanceof AppError && error.code === "auth.unauthorized") return null;
    throw error;
  });
  const db = getDb();
  return oauthCallbackResponse(appOAuthDeps(), {
    url: new URL(request.url),
    userId: user?.id ?? null,
    findServer: (serverId) => {
      const record = user && getServerById(db, { id: serverId, workspaceId: user.workspaceId });
      return record ? toServerDefinition(db, record) : null;
    },
    onAuthorized: async (server) => {
      if (user) await appPool().reconnect(user.id, server);
    },
  });
}
