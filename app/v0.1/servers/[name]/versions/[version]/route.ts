import { requireUserOrToken } from "@/lib/use-cases/caller";
import { param, route } from "@/lib/http";
import { registryServerVersion } from "@/lib/use-cases/catalog";
import { preflight, withCors } from "../../../cors";

type Context = { params: Promise<{ name: string; version: string }> };

/** One version of a catalog server (`latest`: the one the catalog offers) as a `ServerResponse`, else 404. */
export const GET = async (request: Request, context: Context) =>
  withCors(
    await route(async () => {
      const user = await requireUserOrToken(request, "api:read");
      const name = decodeURIComponent(await param(context, "name"));
      return Response.json(await registryServerVersion(user, name, decodeURIComponent(await param(context, "version"))));
    })(),
  );

/** CORS preflight. */
export const OPTIONS = async () => preflight();
