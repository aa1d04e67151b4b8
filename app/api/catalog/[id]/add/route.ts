import { requireWorkspace } from "@/lib/use-cases/caller";
import { idParam, parseJson, route } from "@/lib/http";
import { addServerFromCatalog } from "@/lib/use-cases/catalog";
import { catalogAddBody } from "./schema";

type Context = { params: Promise<{ id: string }> };

/**
 * Add a server from a catalog entry (owners/admins, members for a remote entry where the workspace
 * allows it; stdio packages: instance administrators): `{option, name, credentials, values}`; it starts at once.
 */
export const POST = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspace(request);
  const body = await parseJson(request, catalogAddBody);
  return Response.json(await addServerFromCatalog(caller, await idParam(context), body), { status: 201 });
});
