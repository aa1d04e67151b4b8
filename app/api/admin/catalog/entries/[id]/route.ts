import { requireInstanceAdmin } from "@/lib/use-cases/caller";
import { idParam, parseJson, route } from "@/lib/http";
import { changeCatalogEntry, removeCatalogEntry } from "@/lib/use-cases/catalog";
import { entryChangeBody } from "./schema";

type Context = { params: Promise<{ id: string }> };

/** Pin a version (null: follow the latest), set visibility (with its workspaces) or status of an entry. */
export const PATCH = route(async (request: Request, context: Context) => {
  const admin = await requireInstanceAdmin();
  const body = await parseJson(request, entryChangeBody);
  return Response.json(await changeCatalogEntry(admin, await idParam(context), body));
});

/** Remove an entry with its versions; servers added from it keep their config. */
export const DELETE = route(async (_request: Request, context: Context) => {
  const admin = await requireInstanceAdmin();
  await removeCatalogEntry(admin, await idParam(context));
  return new Response(null, { status: 204 });
});
