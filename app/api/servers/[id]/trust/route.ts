import { getDb } from "@/db/client";
import { requireUser } from "@/lib/auth/session";
import { idParam, route } from "@/lib/http";
import { appPool } from "@/lib/host/engine";
import { callerAndServer, parseBody } from "@/lib/host/server-api";
import { changeServerTrust, serverTrustView, trustUpdateSchema } from "@/lib/trust/trust-service";

type Context = { params: Promise<{ id: string }> };

/**
 * Trust settings, whether the caller may change them, and the held tools with old and new
 * definitions; `?refresh=1` lists the server's tools first (connecting if needed).
 */
export const GET = route(async (request: Request, context: Context) => {
  const { user, server } = await callerAndServer(context);
  const refresh = new URL(request.url).searchParams.get("refresh") === "1";
  return Response.json(await serverTrustView(getDb(), appPool(), user, server, refresh));
});

/** Mark the server trusted/untrusted or switch its lethal-trifecta check (creator or admin; audited). */
export const PUT = route(async (request: Request, context: Context) => {
  const body = await parseBody(request, trustUpdateSchema);
  const user = await requireUser();
  return Response.json(changeServerTrust(getDb(), user, await idParam(context), body));
});
