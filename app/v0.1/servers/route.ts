import { requireUser } from "@/lib/use-cases/caller";
import { parseQuery, route } from "@/lib/http";
import { registryServers } from "@/lib/use-cases/catalog";
import { preflight, withCors } from "./cors";
import { registryListQuery } from "./schema";

/** The catalog as a `/v0.1` registry list (`cursor`, `limit`, `search`, `updated_since`, `version`), what the signed-in user may see. */
export const GET = async (request: Request) =>
  withCors(
    await route(async () => {
      const user = await requireUser(request);
      return Response.json(registryServers(user, parseQuery(request, registryListQuery)));
    })(),
  );

/** CORS preflight. */
export const OPTIONS = async () => preflight();
