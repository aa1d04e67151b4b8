import { requireWorkspaceById } from "@/lib/use-cases/caller";
import { idParam, parseQuery, route } from "@/lib/http";
import { usageResponse } from "@/lib/use-cases/usage";
import { usageQuery } from "./schema";

type Context = { params: Promise<{ id: string }> };

/** Usage figures: the caller's own, the workspace's or one member's (owners/admins), the instance's (administrators); `format=csv` downloads them. */
export const GET = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspaceById(await idParam(context));
  return await usageResponse(caller, parseQuery(request, usageQuery));
});
