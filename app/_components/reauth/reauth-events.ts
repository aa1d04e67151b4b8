/**
 * Re-authentication as the browser asks for it: an API answer `auth.reauth_required` (docs/errors.md)
 * is handed to the page's `ReauthPrompt`, which asks for the password or a code; the API client then
 * retries the act once. Without a prompt on the page the answer stays a plain error.
 */

type Asker = (message: string) => Promise<boolean>;

let asker: Asker | null = null;
let asking: Promise<boolean> | null = null;

/** Register the page's prompt (one at a time); returns the unregister function. */
export function registerReauthPrompt(ask: Asker): () => void {
  asker = ask;
  return () => {
    if (asker === ask) asker = null;
  };
}

/**
 * Ask the user to prove who they are again; true once they did (the act may be retried), false when
 * they cancelled or no prompt is mounted. Calls made while the prompt is open share its answer.
 */
export function requestReauth(message: string): Promise<boolean> {
  if (!asker) return Promise.resolve(false);
  asking ??= asker(message).finally(() => {
    asking = null;
  });
  return asking;
}
