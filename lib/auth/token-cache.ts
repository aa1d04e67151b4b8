/**
 * The verified session tokens of lib/auth/session-token.ts: token → session id, each kept for a
 * short time, least recently used first out. Sized for a crowd: with a cache smaller than the
 * number of active sessions, a first-in-first-out cache evicts every token before its next request
 * and every request pays the decryption again (docs/performance.md#what-grows-with-the-crowd).
 */

/**
 * Tokens kept: ten times the thousand active users an instance is sized for (README); a token is a
 * few hundred bytes.
 */
export const TOKEN_CACHE_MAX = 10_000;

/** How long a verified token is trusted before it is decrypted again. */
export const TOKEN_CACHE_TTL_MS = 60_000;

/** Token → session id with a time limit per entry and a bound on entries. */
export class VerifiedTokenCache {
  private readonly entries = new Map<string, { sessionId: string; until: number }>();

  /** `max`: tokens kept; `ttlMs`: how long a verified token is trusted without decrypting it again. */
  constructor(
    private readonly max: number,
    private readonly ttlMs: number,
  ) {}

  /** The session id of `token` verified within the time limit, or undefined. */
  get(token: string, now: number): string | undefined {
    const hit = this.entries.get(token);
    if (!hit) return undefined;
    this.entries.delete(token);
    if (hit.until <= now) return undefined;
    this.entries.set(token, hit); // most recently used last
    return hit.sessionId;
  }

  /** Keep `token` → `sessionId` until the time limit or `expiresAt`, whichever comes first. */
  set(token: string, sessionId: string, now: number, expiresAt: number): void {
    this.entries.delete(token);
    if (this.entries.size >= this.max) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(token, { sessionId, until: Math.min(expiresAt, now + this.ttlMs) });
  }

  /** Tokens held (tests). */
  get size(): number {
    return this.entries.size;
  }
}
