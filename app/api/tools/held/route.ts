import { requireWorkspace } from "@/lib/use-cases/caller";
import { heldTools } from "@/lib/use-cases/trust-ops";
import { route } from "@/lib/http";

/** Tools of the caller's workspace held for review (new or changed definitions); the model does not get them. */
export const GET = route(async (request: Request) => {
  const caller = await requireWorkspace(request);
  return Response.json(await heldTools(caller));
});
