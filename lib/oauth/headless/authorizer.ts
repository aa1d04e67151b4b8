/**
 * The headless "user agent" of the OAuth flow, for the command line and the conformance suite:
 * it GETs the authorization URL without following the redirect, checks `state`, and takes `code`
 * from `Location`. Nothing from metadata ever reaches a shell or an OS opener.
 */
import { OAuthFlowError } from "../shared/errors";
import type { AuthorizationHandler } from "../shared/provider";
import type { FetchLike } from "@modelcontextprotocol/client";

/** A handler for `onAuthorize` plus the code it obtained. */
export interface HeadlessAuthorizer {
  onAuthorize: AuthorizationHandler;
  /** The code of the last authorization (taken once). */
  takeCode(): string;
  /** The code and the RFC 9207 `iss` of the last authorization (taken once). */
  takeResponse(): AuthorizationResponse;
}

/** What the authorization server sent back on the redirect. */
export interface AuthorizationResponse {
  code: string;
  /** RFC 9207 issuer identifier, when the AS sent one; the SDK compares it with the discovered issuer. */
  iss?: string;
}

/** Create a headless authorizer that uses `fetch` (the guarded OAuth fetch) for the GET. */
export function createHeadlessAuthorizer(fetch: FetchLike): HeadlessAuthorizer {
  let code: string | undefined;
  let iss: string | undefined;
  const takeResponse = (): AuthorizationResponse => {
    const taken = code;
    code = undefined;
    if (!taken) throw new OAuthFlowError("no_redirect", "no authorization code was obtained");
    return { code: taken, ...(iss !== undefined ? { iss } : {}) };
  };
  return {
    async onAuthorize({ url, state }) {
      const response = await fetch(url, { redirect: "manual" });
      await response.body?.cancel();
      const location = response.headers.get("location");
      if (response.status < 300 || response.status >= 400 || !location) throw new OAuthFlowError("no_redirect", `HTTP ${response.status}`);
      const back = new URL(location, url);
      if (back.searchParams.get("error")) throw new OAuthFlowError("authorization_denied");
      if (back.searchParams.get("state") !== state) throw new OAuthFlowError("state_mismatch");
      const received = back.searchParams.get("code");
      if (!received) throw new OAuthFlowError("no_redirect", "no code in the redirect");
      code = received;
      iss = back.searchParams.get("iss") ?? undefined;
    },
    takeCode: () => takeResponse().code,
    takeResponse,
  };
}
