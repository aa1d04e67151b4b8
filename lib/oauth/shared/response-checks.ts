/**
 * What Switchboard accepts from an authorization server beyond the SDK's schemas
 * (docs/security.md#oauth): a registered client id it can put in a URL and a header unchanged, and
 * token responses that are bearer tokens with a sane lifetime and no scope beyond what was asked.
 */
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/client";
import { OAuthFlowError } from "./errors";

/** Longest client id accepted from a registration. */
export const MAX_CLIENT_ID_LENGTH = 255;
/** Token lifetimes are clamped into this range (seconds): at least 10 s, at most a year. */
export const EXPIRES_IN_RANGE = { min: 10, max: 365 * 24 * 3600 } as const;

// Printable ASCII without space, quotes, backquote, angle brackets or backslash: safe in a URL, a header and HTML.
const CLIENT_ID = /^[!#-&(-;=?-[\]^_a-~]+$/;

/** Refuse a registered client whose id is not printable ASCII of bounded length (CRLF, `<script>`, …). */
export function assertUsableClient(info: OAuthClientInformationMixed): void {
  const id = (info as { client_id?: unknown }).client_id;
  if (typeof id !== "string" || id.length === 0 || id.length > MAX_CLIENT_ID_LENGTH || !CLIENT_ID.test(id)) {
    throw new OAuthFlowError("invalid_registration", `client_id must be 1–${MAX_CLIENT_ID_LENGTH} printable ASCII characters`);
  }
}

/**
 * Check a token response before it is stored: `token_type` must be bearer (any case, RFC 6749
 * §5.1), `expires_in` is clamped into EXPIRES_IN_RANGE, and a granted scope naming anything outside
 * `allowed` (what was asked for, or granted before) is refused. Returns the tokens to store.
 */
export function checkedTokens(tokens: OAuthTokens, allowed: Set<string> | undefined): OAuthTokens {
  if (typeof tokens.token_type !== "string" || tokens.token_type.toLowerCase() !== "bearer") {
    throw new OAuthFlowError("invalid_token_response", "token_type is not bearer");
  }
  const extra = allowed && tokens.scope ? tokens.scope.split(/\s+/).filter((s) => s && !allowed.has(s)) : [];
  if (extra.length) {
    throw new OAuthFlowError("invalid_token_response", `granted scope wider than asked for: ${extra.slice(0, 5).join(" ").slice(0, 200)}`);
  }
  if (tokens.expires_in === undefined) return tokens;
  const seconds = Number.isFinite(tokens.expires_in) ? tokens.expires_in : EXPIRES_IN_RANGE.min;
  return { ...tokens, expires_in: Math.min(EXPIRES_IN_RANGE.max, Math.max(EXPIRES_IN_RANGE.min, seconds)) };
}
