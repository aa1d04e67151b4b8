import { requireInstanceAdmin } from "@/lib/use-cases/caller";
import { idParam, parseJson, route } from "@/lib/http";
import { importFromCatalogRegistry } from "@/lib/use-cases/catalog";
import { importBody } from "./schema";

type Context = { params: Promise<{ id: string }> };

/** Import chosen servers of a registry with every version; answers the report (imported, updated, skipped with fields). */
export const POST = route(async (request: Request, context: Context) => {
  const admin = await requireInstanceAdmin();
  const body = await parseJson(request, importBody);
  return Response.json(await importFromCatalogRegistry(admin, await idParam(context), body.names));
});
