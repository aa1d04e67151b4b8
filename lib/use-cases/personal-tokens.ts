/**
 * The signed-in user's personal access tokens (docs/personal-tokens.md): list, create (after a recent
 * sign-in; the secret answered once) and revoke. Binds the database handle for lib/auth.
 */
import "server-only";
import type { z } from "zod";
import { getDb } from "../../db/client";
import { type createTokenSchema, createToken, listTokens, revokeToken } from "../auth/personal-tokens";
import { requireRecentAuth } from "../auth/reauth";
import type { SessionUser } from "../auth/session";

export { createTokenSchema, TOKEN_LIFETIMES_DAYS, TOKEN_SCOPES, type TokenScope } from "../auth/personal-tokens";

/** The caller's tokens, newest first: name, workspace, scopes, expiry, last use, state; never a secret. */
export function myTokens(user: SessionUser) {
  return listTokens(getDb(), user.id);
}

/** Make a token: a sensitive act (a new credential for the account), so it needs a recent sign-in. */
export function createMyToken(user: SessionUser, input: z.infer<typeof createTokenSchema>) {
  requireRecentAuth(getDb(), user);
  return createToken(getDb(), user, input);
}

/** Revoke one of the caller's tokens; another user's id is `token.not_found`. */
export function revokeMyToken(user: SessionUser, tokenId: string): void {
  revokeToken(getDb(), user, tokenId);
}
