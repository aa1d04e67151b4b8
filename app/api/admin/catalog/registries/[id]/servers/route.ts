import { requireInstanceAdmin } from "@/lib/use-cases/caller";
import { idParam, parseQuery, route } from "@/lib/http";
import { browseCatalogRegistry } from "@/lib/use-cases/catalog";
import { browseQuery } from "./schema";

type Context = { params: Promise<{ id: string }> };

/** One page of a registry's latest servers (`?search=&cursor=`), to choose which to import; malformed ones come with their fields. */
export const GET = route(async (request: Request, context: Context) => {
  await requireInstanceAdmin();
  const query = parseQuery(request, browseQuery);
  return Response.json(await browseCatalogRegistry(await idParam(context), query));
});
