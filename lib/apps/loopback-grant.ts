/**
 * The proof that the host granted an app frame loopback origins. The frame's page
 * (`GET /api/apps/sandbox?csp=…`) takes its CSP from the query string, which the frame itself can
 * change by navigating; so loopback origins reach its CSP only with a grant: an HMAC, under a key
 * that never leaves this process, of the user and the exact lists the host approved for an app of a
 * server on loopback (lib/apps/app-resource.ts). Server code only (lib/apps is not browser-safe).
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { singleton } from "../singleton";
import { type AppCsp, CSP_LISTS, hasLoopbackOrigin, sanitizeAppCsp } from "./app-csp";

// One key per process: a grant lives as long as the chat page that holds it, and a restart reloads that.
const grantKey = () => singleton("apps.loopbackGrantKey", () => randomBytes(32));

function sign(userId: string, csp: AppCsp): string {
  const lists = CSP_LISTS.map((key) => csp[key] ?? []);
  return createHmac("sha256", grantKey())
    .update(JSON.stringify([userId, lists]))
    .digest("base64url");
}

/** `csp` with a grant for `userId` when it names a loopback origin (the caller checked the server is on loopback). */
export function withLoopbackGrant(csp: AppCsp, userId: string): AppCsp {
  return hasLoopbackOrigin(csp) ? { ...csp, loopbackGrant: sign(userId, csp) } : csp;
}

/** The declared metadata a frame's page sent, reduced to safe origins; loopback origins only under a valid grant of `userId`. */
export function grantedAppCsp(declared: unknown, userId: string): AppCsp {
  const widest = sanitizeAppCsp(declared, { loopback: true });
  const grant = (declared as { loopbackGrant?: unknown } | null)?.loopbackGrant;
  if (typeof grant === "string" && hasLoopbackOrigin(widest)) {
    const expected = Buffer.from(sign(userId, widest));
    const given = Buffer.from(grant);
    if (given.length === expected.length && timingSafeEqual(given, expected)) return widest;
  }
  return sanitizeAppCsp(declared);
}
