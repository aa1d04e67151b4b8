import { parseJson, route } from "@/lib/http";
import { requireWorkspace } from "@/lib/use-cases/caller";
import { catalogSettings, changeCatalogSettings } from "@/lib/use-cases/catalog";
import { catalogSettingsBody } from "./schema";

/** Whether members of the workspace may add remote servers from the catalog, and whether the caller may change it. */
export const GET = route(async (request: Request) => {
  const caller = await requireWorkspace(request);
  return Response.json(await catalogSettings(caller));
});

/** Turn members' Add of remote catalog entries on or off (`{membersAddRemote}`; owners/admins). */
export const PUT = route(async (request: Request) => {
  const caller = await requireWorkspace(request, { role: "admin" });
  const body = await parseJson(request, catalogSettingsBody);
  return Response.json(await changeCatalogSettings(caller, body));
});
