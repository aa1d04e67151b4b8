/**
 * Where the sign-in page may send a user back to (`/signin?next=…`): only the pages that need a
 * sign-in on the way, today the OAuth consent page (`/oauth/interaction/<uid>`, docs/gateway.md).
 * A closed list, not "any path": a `next` that could name another site, or any page, would make
 * the sign-in page an open redirect or a phishing aid.
 */

const RETURNABLE = /^\/oauth\/interaction\/[A-Za-z0-9_-]{1,128}$/;

/** `value` when the sign-in page may send the user back there, else null. */
export function returnPath(value: unknown): string | null {
  return typeof value === "string" && RETURNABLE.test(value) ? value : null;
}
