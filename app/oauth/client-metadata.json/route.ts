import { publicBaseUrl } from "@/lib/oauth/web/app-deps";
import { clientMetadataDocument } from "@/lib/oauth/web/client-metadata";

export const dynamic = "force-dynamic";

/** The app's Client ID Metadata Document (public, cacheable for an hour). */
export function GET(): Response {
  return Response.json(clientMetadataDocument(publicBaseUrl()), { headers: { "cache-control": "public, max-age=3600" } });
}
