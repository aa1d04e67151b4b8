import { requireInstanceAdmin } from "@/lib/use-cases/caller";
import { parseJson, route } from "@/lib/http";
import { addCatalogServerJson } from "@/lib/use-cases/catalog";
import { serverJsonBody } from "./schema";

/** Add a `server.json` to the catalog: a new entry (visible to admins only until set otherwise) or a new version of a hand entry. */
export const POST = route(async (request: Request) => {
  const admin = await requireInstanceAdmin();
  const body = await parseJson(request, serverJsonBody);
  return Response.json(await addCatalogServerJson(admin, body.serverJson), { status: 201 });
});
