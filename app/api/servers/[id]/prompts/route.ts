import { route } from "@/lib/http";
import { appPool } from "@/lib/host/engine";
import { callerAndServer } from "@/lib/host/server-api";

type Context = { params: Promise<{ id: string }> };

/** The server's prompts with their arguments. */
export const GET = route(async (_request: Request, context: Context) => {
  const { user, server } = await callerAndServer(context);
  const pool = appPool();
  await pool.discover(user.id, [server]);
  return Response.json({ prompts: await pool.listPrompts(user.id, server) });
});
