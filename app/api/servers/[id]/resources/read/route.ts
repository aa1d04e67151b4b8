import { route } from "@/lib/http";
import { appPool } from "@/lib/host/engine";
import { callerAndServer, parseBody, readResourceBody } from "@/lib/host/server-api";

type Context = { params: Promise<{ id: string }> };

/** resources/read for one URI. */
export const POST = route(async (request: Request, context: Context) => {
  const { user, server } = await callerAndServer(context);
  const { uri } = await parseBody(request, readResourceBody);
  return Response.json(await appPool().readResource(user.id, server, uri, { signal: request.signal }));
});
