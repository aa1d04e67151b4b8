/**
 * The proof that the host granted an app frame loopback origins. The frame's page
 * (`GET /api/apps/sandbox?csp=…`) takes its CSP from the query string, which the frame itself can
 * change by navigating; so loopback origins reach its CSP only with a grant: an HMAC of the user, the
 * exact lists the host approved for an app of a server on loopback (lib/apps/app-resource.ts) and
 * when the grant lapses. Server code only (lib/apps is not browser-safe).
 *
 * The key is derived from the instance key with HKDF under a label of its own, so it is the same on
 * every replica (a grant minted on one verifies on another, with nothing shared at run time) and
 * never the instance key itself. A grant names its own end: a day, longer than an app frame stays
 * on a page (a page that shows the app again asks for a new one), and a grant copied from a URL
 * does not verify for ever.
 */
import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { instanceKey } from "../../db/key-check";
import { type AppCsp, CSP_LISTS, hasLoopbackOrigin, sanitizeAppCsp } from "./app-csp";

/** How long a grant verifies after it was made. */
export const LOOPBACK_GRANT_MS = 24 * 3_600_000;
/** HKDF's `info`: this key is for loopback grants and nothing else (another use takes another label). */
const KEY_LABEL = "switchboard/apps/loopback-grant/v1";

/** The key grants are signed with, derived from `secret` (the instance key's bytes). */
export function loopbackGrantKey(secret: Buffer = instanceKey().key): Buffer {
  // Derived per use: a few microseconds, on a path taken once per app frame, and nothing to keep.
  return Buffer.from(hkdfSync("sha256", secret, Buffer.alloc(0), KEY_LABEL, 32));
}

function mac(userId: string, csp: AppCsp, until: number): string {
  const lists = CSP_LISTS.map((key) => csp[key] ?? []);
  return createHmac("sha256", loopbackGrantKey())
    .update(JSON.stringify([userId, lists, until]))
    .digest("base64url");
}

/** `csp` with a grant for `userId` when it names a loopback origin (the caller checked the server is on loopback). */
export function withLoopbackGrant(csp: AppCsp, userId: string, now = Date.now()): AppCsp {
  if (!hasLoopbackOrigin(csp)) return csp;
  const until = now + LOOPBACK_GRANT_MS;
  return { ...csp, loopbackGrant: `${until}.${mac(userId, csp, until)}` };
}

/** The declared metadata a frame's page sent, reduced to safe origins; loopback origins only under a valid, unexpired grant of `userId`. */
export function grantedAppCsp(declared: unknown, userId: string, now = Date.now()): AppCsp {
  const widest = sanitizeAppCsp(declared, { loopback: true });
  const grant = (declared as { loopbackGrant?: unknown } | null)?.loopbackGrant;
  const match = typeof grant === "string" ? /^(\d{1,15})\.([\w-]+)$/.exec(grant) : null;
  if (match && hasLoopbackOrigin(widest) && Number(match[1]) > now) {
    const expected = Buffer.from(mac(userId, widest, Number(match[1])));
    const given = Buffer.from(match[2]);
    if (given.length === expected.length && timingSafeEqual(given, expected)) return widest;
  }
  return sanitizeAppCsp(declared);
}
