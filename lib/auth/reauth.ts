/**
 * Re-authentication before sensitive acts (docs/second-factors.md#re-authentication): changing
 * roles, credential modes, a server's origin or secrets, another user's account, or the instance's
 * second-factor policies needs a sign-in or a re-entered password or code within the last 10 minutes.
 * The use cases call `requireRecentAuth`; this is the one place the rule lives.
 */
import { z } from "zod";
import type { Db } from "../../db/client";
import { getSessionAuthenticatedAt, markSessionAuthenticated } from "../../db/queries/sessions";
import { getPasswordHashById } from "../../db/queries/users";
import { AppError } from "../errors";
import { verifyPassword } from "../security/password";
import { assertionSchema, relyingParty } from "./passkeys";
import { proveFactor } from "./second-factors";
import { clearAccountAttempts, takeAttempt } from "./sign-in-throttle";

/** How long a sign-in or re-authentication counts as recent. */
export const REAUTH_WINDOW_MS = 10 * 60_000;

/** The caller of a sensitive act: their browser session. */
export interface ReauthActor {
  sessionId: string;
}

/** Throw `auth.reauth_required` unless the caller's session proved who they are within the window. */
export async function requireRecentAuth(db: Db, actor: ReauthActor, now = new Date()): Promise<void> {
  const at = await getSessionAuthenticatedAt(db, actor.sessionId);
  if (at && now.getTime() - at.getTime() <= REAUTH_WINDOW_MS) return;
  throw new AppError(
    "auth.reauth_required",
    "Confirm it is you: enter your password or a code from your authenticator app, then try again.",
  );
}

/** The body of `POST /api/account/reauth`: the password, a second-factor code, or a passkey's answer. */
export const reauthSchema = z.union([
  z.object({ password: z.string().min(1).max(512) }).strict(),
  z.object({ code: z.string().min(1).max(64) }).strict(),
  z.object({ passkey: assertionSchema }).strict(),
]);

/** Who re-authenticates, from which session and address. */
export interface ReauthCaller {
  id: string;
  email: string;
  sessionId: string;
  address: string;
  /** The app's public origin, which a passkey's answer must be signed for. */
  origin: string;
}

/**
 * Prove who the caller is again with their password, a second-factor code or a passkey (throttled
 * like a sign-in); the session then counts as recently authenticated for `REAUTH_WINDOW_MS`.
 */
export async function reauthenticate(db: Db, caller: ReauthCaller, body: z.infer<typeof reauthSchema>, now = new Date()): Promise<void> {
  await takeAttempt("signIn", { email: caller.email, address: caller.address });
  let ok: boolean;
  if ("password" in body) {
    const stored = await getPasswordHashById(db, caller.id);
    ok = !!stored && (await verifyPassword(body.password, stored));
  } else if ("code" in body) {
    ok = await proveFactor(db, caller.id, body.code, now);
  } else {
    ok = await proveFactor(db, caller.id, { passkey: body.passkey, rp: relyingParty(caller.origin) }, now);
  }
  if (!ok) {
    if ("passkey" in body) throw new AppError("auth.forbidden", "The passkey was not accepted.");
    const field = "password" in body ? "password" : "code";
    throw new AppError("auth.forbidden", field === "password" ? "The password is not right." : "That code is not right.", field);
  }
  await clearAccountAttempts(caller.email, caller.address);
  await markSessionAuthenticated(db, caller.sessionId, now);
}
