/**
 * Pending OAuth authorizations keyed by their `state`: single use (taken with a delete), short
 * lived, bound to the user who started them. The PKCE verifier rides along, encrypted.
 */
import { eq, lt } from "drizzle-orm";
import type { Db } from "../client";
import { oauthStates } from "../schema";
import { gated } from "../transaction";
import { exec, one } from "../exec";

/** A pending authorization as stored. */
export interface OAuthStateRow {
  state: string;
  userId: string;
  serverId: string;
  codeVerifierEnc: string | null;
  expiresAt: Date;
  /** A Connect for everyone (the tokens go to the user's shared slot). */
  forEveryone: boolean;
}

/** Record a pending authorization (and sweep expired ones, so the table stays small). */
export async function insertOAuthState(db: Db, row: OAuthStateRow): Promise<void> {
  return gated(db, async () => {
    await exec(db.delete(oauthStates).where(lt(oauthStates.expiresAt, new Date())));
    await exec(db.insert(oauthStates).values(row));
  });
}

/**
 * Take (read and delete, atomically) the pending authorization for `state`: a second take of the
 * same state finds nothing, so a state can be used once only.
 */
export async function takeOAuthState(db: Db, state: string): Promise<OAuthStateRow | null> {
  return gated(db, async () => {
    const row = await one(
      db.delete(oauthStates).where(eq(oauthStates.state, state)).returning({
        state: oauthStates.state,
        userId: oauthStates.userId,
        serverId: oauthStates.serverId,
        codeVerifierEnc: oauthStates.codeVerifierEnc,
        expiresAt: oauthStates.expiresAt,
        forEveryone: oauthStates.forEveryone,
      }),
    );
    return row ?? null;
  });
}
