import { requireUserOrToken } from "@/lib/use-cases/caller";
import { param, route } from "@/lib/http";
import { registryServerVersions } from "@/lib/use-cases/catalog";
import { preflight, withCors } from "../../cors";

type Context = { params: Promise<{ name: string }> };

/** Every version of one catalog server the caller (session or `api:read` token) may see (`ServerList`), else 404. */
export const GET = async (request: Request, context: Context) =>
  withCors(
    await route(async () => {
      const user = await requireUserOrToken(request, "api:read");
      return Response.json(await registryServerVersions(user, decodeURIComponent(await param(context, "name"))));
    })(),
  );

/** CORS preflight. */
export const OPTIONS = async () => preflight();
