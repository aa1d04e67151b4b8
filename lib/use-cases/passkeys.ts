/**
 * Passkeys for the signed-in user (adding one, a challenge to prove it is them) and the options of a
 * passwordless sign-in or a sign-in's second step, for anyone. Each binds the database handle and
 * the app's public origin (lib/security/public-url.ts), which every passkey answer is checked against.
 */
import "server-only";
import { z } from "zod";
import { getDb } from "../../db/client";
import {
  attestationSchema,
  finishPasskeyRegistration,
  passkeyRequestOptions,
  relyingParty,
  startPasskeyRegistration,
} from "../auth/passkeys";
import type { SessionUser } from "../auth/session";
import { requestPublicOrigin } from "../security/public-url";

/** The body of `POST /api/account/factors/passkey/confirm`: a name for it and the authenticator's answer. */
export const confirmPasskeySchema = z.object({ name: z.string().max(80).optional(), response: attestationSchema }).strict();
/** The body of `POST /api/auth/passkey`: a passwordless sign-in, or the second step of a sign-in. */
export const passkeyOptionsSchema = z.object({ purpose: z.enum(["sign-in", "second-factor"]) }).strict();

const rpOf = (request: Request) => relyingParty(requestPublicOrigin(request));

/** Options for the browser to create a passkey for the caller (a 2-minute, single-use challenge). */
export async function startPasskey(user: SessionUser, request: Request) {
  return await startPasskeyRegistration(getDb(), user, rpOf(request));
}

/** Verify and add the caller's new passkey; `recoveryCodes` are answered when it is their first factor. */
export function confirmPasskey(user: SessionUser, request: Request, input: z.infer<typeof confirmPasskeySchema>) {
  return finishPasskeyRegistration(getDb(), user, rpOf(request), input.name ?? "", input.response as never);
}

/** Options for a passkey sign-in (passwordless or second step): nobody is signed in yet. */
export async function passkeySignInOptions(request: Request, input: z.infer<typeof passkeyOptionsSchema>) {
  return await passkeyRequestOptions(getDb(), rpOf(request), input.purpose);
}

/** Options for the caller to prove it is them with one of their passkeys (re-authentication, removing a factor). */
export async function passkeyReauthOptions(user: SessionUser, request: Request) {
  return await passkeyRequestOptions(getDb(), rpOf(request), "reauth", user.id);
}
