import { requireWorkspace } from "@/lib/use-cases/caller";
import { connectServer, oauthRequestOrigin } from "@/lib/use-cases/oauth-connect";
import { parseJson, route } from "@/lib/http";
import { connectBody } from "../schema";

/**
 * Connect: start an authorization of one of the workspace's servers (`forEveryone: true`: the
 * Connect for everyone of a shared server, owners and admins only). Answers `{status: "redirect",
 * url}` (open it in the browser) or `{status: "authorized"}` (a refresh sufficed; reconnected). The
 * browser comes back to this request's origin under the public-URL rule (lib/oauth/web/redirect.ts).
 */
export const POST = route(async (request: Request) => {
  const caller = await requireWorkspace(request);
  const { serverId, forEveryone } = await parseJson(request, connectBody, 10_000);
  return Response.json(await connectServer(caller, serverId, oauthRequestOrigin(request), { forEveryone }), {
    headers: { "cache-control": "no-store" },
  });
});
