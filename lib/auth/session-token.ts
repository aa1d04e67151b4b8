/**
 * Reading the session straight from next-auth's JWT cookie, with a small cache of verified tokens.
 * `getServerSession` rebuilds next-auth's whole handler and re-encrypts the token on every call;
 * API routes only need "which user is this", so they decrypt once per token and reuse the answer
 * until the token's own expiry (bounded by a short TTL so a cache entry never outlives much).
 */
import "server-only";
import { cookies } from "next/headers";
import { decode } from "next-auth/jwt";
import { nextAuthSecret } from "./options";

// next-auth v4 names the cookie with a __Secure- prefix on https deployments.
const SESSION_COOKIES = ["__Secure-next-auth.session-token", "next-auth.session-token"];
const CACHE_TTL_MS = 60_000;
const CACHE_MAX = 1000;

const cache = new Map<string, { userId: string; until: number }>();

/** The user id of the request's session token, or null (no cookie, bad or expired token). */
export async function sessionUserId(): Promise<string | null> {
  const jar = await cookies();
  const token = SESSION_COOKIES.map((name) => jar.get(name)?.value).find(Boolean);
  if (!token) return null;
  const now = Date.now();
  const hit = cache.get(token);
  if (hit && hit.until > now) return hit.userId;
  cache.delete(token);
  // decode() verifies and decrypts (A256GCM); a forged or altered cookie yields null or throws.
  const payload = await decode({ token, secret: nextAuthSecret() }).catch(() => null);
  const expiresAt = typeof payload?.exp === "number" ? payload.exp * 1000 : 0;
  if (!payload?.sub || expiresAt <= now) return null;
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
  cache.set(token, { userId: payload.sub, until: Math.min(expiresAt, now + CACHE_TTL_MS) });
  return payload.sub;
}
