import { requireWorkspace } from "@/lib/use-cases/caller";
import { reloadWorkspace } from "@/lib/use-cases/server-ops";
import { route } from "@/lib/http";

/** Re-read the caller's server configs and reconnect only what changed (the reference's /reload-mcp). */
export const POST = route(async (request: Request) => {
  const caller = await requireWorkspace(request);
  return Response.json(await reloadWorkspace(caller));
});
