import { route } from "@/lib/http";
import { appPool } from "@/lib/host/engine";
import { callerAndServer, completeBody, parseBody } from "@/lib/host/server-api";

type Context = { params: Promise<{ id: string }> };

/** completion/complete suggestions for a prompt or resource-template argument. */
export const POST = route(async (request: Request, context: Context) => {
  const { user, server } = await callerAndServer(context);
  const body = await parseBody(request, completeBody);
  return Response.json(await appPool().complete(user.id, server, body.ref, body.argument, body.context));
});
