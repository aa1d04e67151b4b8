/**
 * The OAuth flow's own error family. Each code has a fixed, user-safe message (the callback page
 * shows only these, never a query value or a library message).
 */
import { brandError, isBrandedInstance } from "../../error-brand";

/** Why an OAuth step was refused or failed. */
export type OAuthErrorCode =
  | "insecure_url"
  | "pkce_unsupported"
  | "resource_mismatch"
  | "invalid_state"
  | "expired_state"
  | "foreign_state"
  | "state_mismatch"
  | "authorization_denied"
  | "exchange_failed"
  | "no_redirect"
  | "step_up_limit"
  | "not_http_server"
  | "issuer_mismatch"
  | "invalid_metadata"
  | "endpoint_origin_mismatch"
  | "invalid_registration"
  | "invalid_token_response"
  | "upstream_failed";

/** Fixed texts per code: safe to put in HTML as they are. */
export const OAUTH_ERROR_MESSAGES: Record<OAuthErrorCode, string> = {
  insecure_url: "The server's authorization endpoints are not https, so Switchboard refused to use them.",
  pkce_unsupported: "The authorization server does not support PKCE with S256, so Switchboard refused to use it.",
  resource_mismatch: "The server's protected-resource metadata names another server, so Switchboard refused to authorize.",
  invalid_state: "This sign-in link is not valid or was already used. Start again with Connect.",
  expired_state: "This sign-in took too long and expired. Start again with Connect.",
  foreign_state: "This sign-in was started by another account. Start again with Connect while signed in as yourself.",
  state_mismatch: "The authorization server answered with the wrong state.",
  authorization_denied: "The authorization server did not grant access.",
  exchange_failed: "The authorization server refused the sign-in code. Start again with Connect.",
  no_redirect: "The authorization server did not redirect back with a code.",
  step_up_limit: "The server kept asking for more permissions; gave up after 3 authorizations.",
  not_http_server: "Only remote (URL) servers use OAuth.",
  issuer_mismatch: "The answer came from another authorization server than the one Switchboard asked, so it was refused.",
  invalid_metadata: "The server's authorization metadata is malformed or names an unusable endpoint, so Switchboard refused to use it.",
  endpoint_origin_mismatch:
    "The authorization server's sign-in and token endpoints are on different origins, so Switchboard refused to use it.",
  invalid_registration: "The authorization server registered Switchboard with an unusable client id, so it was refused.",
  invalid_token_response: "The authorization server's token answer was not acceptable, so the tokens were refused.",
  upstream_failed: "The authorization server's answer could not be used. Try Connect again later, or ask the server's operator.",
};

/** A refused or failed OAuth step; `message` is the fixed text of `code` unless a detail is given. */
export class OAuthFlowError extends Error {
  readonly code: OAuthErrorCode;
  /** The brand `instanceof` checks, which holds across the app's bundles (lib/error-brand.ts). */
  static readonly brand: string = "switchboard.OAuthFlowError";
  static [Symbol.hasInstance](value: unknown): value is OAuthFlowError {
    return isBrandedInstance(this, value);
  }
  constructor(code: OAuthErrorCode, detail?: string) {
    super(detail ? `${OAUTH_ERROR_MESSAGES[code]} (${detail})` : OAUTH_ERROR_MESSAGES[code]);
    brandError(this, new.target);
    this.name = "OAuthFlowError";
    this.code = code;
  }
}
