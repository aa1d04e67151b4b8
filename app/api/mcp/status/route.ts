import { requireWorkspace } from "@/lib/auth/workspace";
import { workspaceStatus } from "@/lib/host/server-ops";
import { route } from "@/lib/http";

/** Every server's status for the caller; connects what is not connected yet (idempotent discovery). */
export const GET = route(async (request: Request) => {
  const caller = await requireWorkspace(request);
  return Response.json(await workspaceStatus(caller));
});
