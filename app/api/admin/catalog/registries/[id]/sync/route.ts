import { requireInstanceAdmin } from "@/lib/use-cases/caller";
import { idParam, route } from "@/lib/http";
import { syncCatalogRegistry } from "@/lib/use-cases/catalog";

type Context = { params: Promise<{ id: string }> };

/** Sync a registry now (`updated_since` its last complete sync); answers the report. */
export const POST = route(async (_request: Request, context: Context) => {
  const admin = await requireInstanceAdmin();
  return Response.json(await syncCatalogRegistry(admin, await idParam(context)));
});
