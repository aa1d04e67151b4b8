import { route } from "@/lib/http";
import { appPool } from "@/lib/host/engine";
import { callerAndServer } from "@/lib/host/server-api";

type Context = { params: Promise<{ id: string }> };

/** The caller's connection status for this server; `?connect=1` connects it first if needed. */
export const GET = route(async (request: Request, context: Context) => {
  const { user, server } = await callerAndServer(context);
  const pool = appPool();
  if (new URL(request.url).searchParams.get("connect") === "1") await pool.discover(user.id, [server]);
  return Response.json(pool.status(user.id, server));
});
