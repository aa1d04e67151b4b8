/**
 * A user's stored model choice, shared by the database (which stores it, key encrypted) and the
 * agent (which resolves it against the instance defaults). Types only, browser-safe.
 */

/** A user's stored choice (any field may be unset; the key already decrypted). */
export interface UserModelChoice {
  provider?: string | null;
  model?: string | null;
  baseUrl?: string | null;
  apiKey?: string | null;
}
