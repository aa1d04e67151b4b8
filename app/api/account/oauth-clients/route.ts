import { route } from "@/lib/http";
import { requireUser } from "@/lib/use-cases/caller";
import { myConnectedClients } from "@/lib/use-cases/oauth-server";

/** The caller's connected OAuth clients (docs/gateway.md#the-authorization-server): client, endpoint, created, last used; never a token. */
export const GET = route(async (request: Request) => {
  const user = await requireUser(request);
  return Response.json({ clients: await myConnectedClients(user) });
});
