import { route } from "@/lib/http";
import { appPool } from "@/lib/host/engine";
import { callerAndServer } from "@/lib/host/server-api";

type Context = { params: Promise<{ id: string }> };

/** Drop the caller's connection to this server and connect again now. */
export const POST = route(async (_request: Request, context: Context) => {
  const { user, server } = await callerAndServer(context);
  return Response.json(await appPool().reconnect(user.id, server));
});
