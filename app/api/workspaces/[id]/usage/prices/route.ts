import { requireWorkspaceById } from "@/lib/use-cases/caller";
import { idParam, parseJson, route } from "@/lib/http";
import { pricesView, setPrice } from "@/lib/use-cases/usage";
import { priceBody } from "./schema";

type Context = { params: Promise<{ id: string }> };

/** The price tables: defaults, the instance's, the workspace's own. */
export const GET = route(async (_request: Request, context: Context) => {
  const caller = await requireWorkspaceById(await idParam(context));
  return Response.json(await pricesView(caller));
});

/** Set or remove a price (instance: administrators; workspace: owners/admins); audited; recorded costs stay. */
export const PUT = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspaceById(await idParam(context));
  return Response.json(await setPrice(caller, await parseJson(request, priceBody)));
});
