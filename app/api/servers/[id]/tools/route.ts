import { getDb } from "@/db/client";
import { route } from "@/lib/http";
import { appPool } from "@/lib/host/engine";
import { callerAndServer } from "@/lib/host/server-api";
import { listToolsWithHeld } from "@/lib/trust/trust-service";

type Context = { params: Promise<{ id: string }> };

/** The server's registered tools with `held: null | "new" | "changed"` (held tools never reach the model). */
export const GET = route(async (_request: Request, context: Context) => {
  const { user, server } = await callerAndServer(context);
  return Response.json({ tools: await listToolsWithHeld(getDb(), appPool(), user, server) });
});
