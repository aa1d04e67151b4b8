import { requireWorkspace } from "@/lib/use-cases/caller";
import { idParam, parseJson, route } from "@/lib/http";
import { applyCatalogUpdate, catalogUpdateOf } from "@/lib/use-cases/catalog";
import { catalogUpdateBody } from "./schema";

type Context = { params: Promise<{ id: string }> };

/** The catalog update on offer for a server added from the catalog (`{update}`: versions and the fields that change, or null). */
export const GET = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspace(request);
  return Response.json({ update: await catalogUpdateOf(caller, await idParam(context)) });
});

/** Apply the update on offer (`{version}`), like an edit by hand (owners/admins); the server restarts with the new config. */
export const POST = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspace(request, { role: "admin" });
  const body = await parseJson(request, catalogUpdateBody);
  return Response.json(await applyCatalogUpdate(caller, await idParam(context), body.version));
});
