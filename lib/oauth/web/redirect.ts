/**
 * Which origin the browser flow returns to. The redirect URI is not one per process: it follows the
 * public-URL rule of the rest of the app (lib/security/public-url.ts), so a Connect started from
 * 127.0.0.1 without a configured public URL comes back to 127.0.0.1, where its session cookie is.
 */
import { requestPublicOrigin } from "../../security/public-url";
import { CALLBACK_PATH, CLIENT_METADATA_PATH } from "./client-metadata";
import type { OAuthDeps } from "./deps";

/** The web flow's collaborators that do not depend on the origin (store, policy, fetches). */
export type OriginFreeDeps = Omit<OAuthDeps, "redirectUrl" | "clientMetadataUrl">;

/**
 * The origin OAuth redirects of this request go back to: the configured public URL, else the
 * request's own origin when it is loopback (or in development), else the fallback. The callback is
 * served on that same origin, so the code comes back to the address the user started from.
 */
export function oauthRequestOrigin(request: { headers: Pick<Headers, "get"> }): string {
  return requestPublicOrigin(request);
}

/** The collaborators of a flow whose browser is on `origin`: its callback and metadata-document URLs. */
export function depsForOrigin(base: OriginFreeDeps, origin: string): OAuthDeps {
  return {
    ...base,
    redirectUrl: `${origin}${CALLBACK_PATH}`,
    // SEP-991 needs an https document URL; over plain http the SDK registers dynamically instead.
    clientMetadataUrl: origin.startsWith("https://") ? `${origin}${CLIENT_METADATA_PATH}` : undefined,
  };
}
