import { requireInstanceAdmin } from "@/lib/use-cases/caller";
import { parseJson, route } from "@/lib/http";
import { addCatalogRegistry } from "@/lib/use-cases/catalog";
import { registryBody } from "./schema";

/** Add a registry speaking `/v0.1` (`{url, mode, filter?}`); nothing is fetched until an import or a sync. */
export const POST = route(async (request: Request) => {
  const admin = await requireInstanceAdmin();
  const body = await parseJson(request, registryBody);
  return Response.json(await addCatalogRegistry(admin, body), { status: 201 });
});
