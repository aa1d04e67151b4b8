import { requireWorkspace } from "@/lib/use-cases/caller";
import { serverTrust, setServerTrust } from "@/lib/use-cases/trust-ops";
import { idParam, parseJson, route } from "@/lib/http";
import { trustBody } from "./schema";

type Context = { params: Promise<{ id: string }> };

/**
 * Trust settings, whether the caller may change them, and the held tools with old and new
 * definitions; `?refresh=1` lists the server's tools first (connecting if needed).
 */
export const GET = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspace(request);
  const refresh = new URL(request.url).searchParams.get("refresh") === "1";
  return Response.json(await serverTrust(caller, await idParam(context), refresh));
});

/** Mark the server trusted/untrusted or switch its lethal-trifecta check (owners/admins; audited). */
export const PUT = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspace(request);
  const body = await parseJson(request, trustBody);
  return Response.json(await setServerTrust(caller, await idParam(context), body));
});
