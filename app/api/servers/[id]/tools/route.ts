import { route } from "@/lib/http";
import { appPool } from "@/lib/host/engine";
import { callerAndServer } from "@/lib/host/server-api";

type Context = { params: Promise<{ id: string }> };

/** The server's registered tools: registered and raw name, title, description, schema, annotations. */
export const GET = route(async (_request: Request, context: Context) => {
  const { user, server } = await callerAndServer(context);
  return Response.json({ tools: await appPool().listTools(user.id, server) });
});
