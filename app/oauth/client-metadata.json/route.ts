import { oauthClientMetadata } from "@/lib/use-cases/oauth-connect";

export const dynamic = "force-dynamic";

/** The app's Client ID Metadata Document for the origin it is fetched at (public, cacheable for an hour). */
export function GET(request: Request): Response {
  return Response.json(oauthClientMetadata(request), { headers: { "cache-control": "public, max-age=3600" } });
}
