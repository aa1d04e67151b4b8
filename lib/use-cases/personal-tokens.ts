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
export async function myTokens(user: SessionUser) {
  return await listTokens(getDb(), user.id);
}

/** Make a token: a sensitive act (a new credential for the account), so it needs a recent sign-in. */
export async function createMyToken(user: SessionUser, input: z.infer<typeof createTokenSchema>) {
  await requireRecentAuth(getDb(), user);
  return await createToken(getDb(), user, input);
}

/** Revoke one of the caller's tokens; another user's id is `token.not_found`. */
export async function revokeMyToken(user: SessionUser, tokenId: string): Promise<void> {
  await revokeToken(getDb(), user, tokenId);
}
