import { route } from "@/lib/http";
import { requireUser } from "@/lib/use-cases/caller";
import { startPasskey } from "@/lib/use-cases/passkeys";

/** Start adding a passkey: the options for `navigator.credentials.create` (a single-use, 2-minute challenge). */
export const POST = route(async (request: Request) => {
  const user = await requireUser(request);
  return Response.json(await startPasskey(user, request));
});
