import { requireInstanceAdmin } from "@/lib/use-cases/caller";
import { idParam, parseJson, route } from "@/lib/http";
import { changeCatalogRegistry, removeCatalogRegistry } from "@/lib/use-cases/catalog";
import { registryChangeBody } from "./schema";

type Context = { params: Promise<{ id: string }> };

/** Change what a registry's sync follows (`{mode: "chosen" | "filter", filter?}`). */
export const PATCH = route(async (request: Request, context: Context) => {
  const admin = await requireInstanceAdmin();
  const body = await parseJson(request, registryChangeBody);
  return Response.json(await changeCatalogRegistry(admin, await idParam(context), body));
});

/** Remove a registry; the entries imported from it stay as last synced. */
export const DELETE = route(async (_request: Request, context: Context) => {
  const admin = await requireInstanceAdmin();
  await removeCatalogRegistry(admin, await idParam(context));
  return new Response(null, { status: 204 });
});
