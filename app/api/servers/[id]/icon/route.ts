import { requireWorkspace } from "@/lib/use-cases/caller";
import { serverIcon } from "@/lib/use-cases/server-icons";
import { idParam, parseQuery, route } from "@/lib/http";
import { iconQuery } from "./schema";

type Context = { params: Promise<{ id: string }> };

/** One of the server's icons from the app's origin (fetched through the SSRF guard, raster images only). */
export const GET = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspace(request);
  const { i } = parseQuery(request, iconQuery);
  const icon = await serverIcon(caller, await idParam(context), i);
  return new Response(icon.bytes as unknown as BodyInit, {
    headers: {
      "content-type": icon.type,
      "cache-control": "private, max-age=3600",
      "content-security-policy": "default-src 'none'",
      "x-content-type-options": "nosniff",
    },
  });
});
