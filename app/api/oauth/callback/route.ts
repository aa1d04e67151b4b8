import { AppError } from "@/lib/errors";
import { requireUser } from "@/lib/use-cases/caller";
import { finishAuthorization } from "@/lib/use-cases/oauth-connect";

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
  return finishAuthorization(request, user?.id ?? null);
}
