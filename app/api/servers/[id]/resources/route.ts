import { route } from "@/lib/http";
import { appPool } from "@/lib/host/engine";
import { callerAndServer } from "@/lib/host/server-api";

type Context = { params: Promise<{ id: string }> };

/** The server's resources and resource templates. */
export const GET = route(async (_request: Request, context: Context) => {
  const { user, server } = await callerAndServer(context);
  const pool = appPool();
  await pool.discover(user.id, [server]);
  const [resources, resourceTemplates] = await Promise.all([
    pool.listResources(user.id, server),
    pool.listResourceTemplates(user.id, server),
  ]);
  return Response.json({ resources, resourceTemplates });
});
