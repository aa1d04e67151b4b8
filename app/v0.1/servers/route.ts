import { requireUserOrToken } from "@/lib/use-cases/caller";
import { parseQuery, route } from "@/lib/http";
import { registryServers } from "@/lib/use-cases/catalog";
import { preflight, withCors } from "./cors";
import { registryListQuery } from "./schema";

/** The catalog as a `/v0.1` registry list (`cursor`, `limit`, `search`, `updated_since`, `version`), what the caller (session, or a personal access token with `api:read`) may see. */
export const GET = async (request: Request) =>
  withCors(
    await route(async () => {
      const user = await requireUserOrToken(request, "api:read");
      return Response.json(await registryServers(user, parseQuery(request, registryListQuery)));
    })(),
  );

/** CORS preflight. */
export const OPTIONS = async () => preflight();
