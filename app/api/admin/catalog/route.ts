import { requireInstanceAdmin } from "@/lib/use-cases/caller";
import { route } from "@/lib/http";
import { catalogForAdmin, catalogRegistries } from "@/lib/use-cases/catalog";

/** The whole catalog: every entry with its versions, visibility and status, and the registries (instance administrators). */
export const GET = route(async () => {
  await requireInstanceAdmin();
  return Response.json({ entries: await catalogForAdmin(), registries: await catalogRegistries() });
});
