/**
 * The one sentence for a destination the SSRF guard refuses (docs/security.md#ssrf-guard), naming
 * the setting an administrator changes: Test connection, a saved server's status and the model
 * test all say it the same way.
 */
import { BlockedRequestError } from "./errors";
import { ALLOWED_HOSTS_ENV } from "./from-env";

/** The BlockedRequestError `error` is or was caused by (libraries wrap fetch failures), or null. */
export function blockedCause(error: unknown): BlockedRequestError | null {
  for (let e = error, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof BlockedRequestError) return e;
  }
  return null;
}

/** "The address is refused: <reason>. … lists the host in SWITCHBOARD_ALLOWED_HOSTS (for example …) and restarts the app." */
export function blockedMessage(error: BlockedRequestError, subject = "The address"): string {
  let hostname = "";
  try {
    hostname = new URL(error.url).hostname;
  } catch {
    // The display URL did not parse: the hint goes without an example.
  }
  const example = hostname ? ` (for example ${ALLOWED_HOSTS_ENV}=${hostname})` : "";
  return `${subject} is refused: ${error.reason}. Switchboard does not reach internal addresses (loopback, private networks) unless an administrator lists the host in ${ALLOWED_HOSTS_ENV}${example} and restarts the app.`;
}
