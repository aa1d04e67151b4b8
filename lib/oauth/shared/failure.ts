/**
 * What an OAuth step threw, as an error with a code from docs/errors.md and one readable sentence
 * (docs/security.md#oauth): an authorization server that misbehaves is the server's fault (4xx or
 * 502 with its reason), never an unhandled 500 with a library's multi-line text.
 */
import { IssuerMismatchError, OAuthError } from "@modelcontextprotocol/client";
import { zodErrorLine } from "../../mcp/issue-line";
import { NetError } from "../../net/errors";
import { redact } from "../../redact";
import { OAuthFlowError } from "./errors";

/** `error` as an OAuthFlowError (or the NetError it already is: blocked, too large, …). */
export function oauthFailure(error: unknown): OAuthFlowError | NetError {
  if (error instanceof OAuthFlowError || error instanceof NetError) return error;
  if (error instanceof IssuerMismatchError) return new OAuthFlowError("issuer_mismatch");
  const issues = zodErrorLine(error);
  if (issues) return new OAuthFlowError("invalid_metadata", redact(issues).slice(0, 300));
  if (error instanceof SyntaxError) return new OAuthFlowError("invalid_metadata", "an answer is not JSON");
  // An OAuth error answer (RFC 6749 §5.2): its code is a short token, safe to name; its text is not shown.
  if (error instanceof OAuthError && /^[a-z_]{1,64}$/.test(String(error.code))) {
    return new OAuthFlowError("upstream_failed", `the authorization server answered ${error.code}`);
  }
  const name = error instanceof Error ? error.name : "";
  if (name === "TimeoutError" || name === "AbortError") return new OAuthFlowError("upstream_failed", "no answer in time");
  if (name === "TypeError" && /fetch failed/.test((error as Error).message)) {
    return new OAuthFlowError("upstream_failed", "the authorization server could not be reached");
  }
  // Anything else is still the authorization server's answer failing a step: logged for the operator.
  console.warn("[switchboard] OAuth step failed:", redact(error instanceof Error ? `${error.name}: ${error.message}` : String(error)));
  return new OAuthFlowError("upstream_failed");
}
