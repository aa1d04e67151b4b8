/**
 * next-auth's route handler with sign-in throttling in front: a credentials sign-in is counted per
 * account and per client address before next-auth checks the password, and a throttled one gets
 * 429 with `Retry-After` (next-auth itself can only answer 401). A right password with a second
 * factor owed is answered `auth.second_factor_required` with a pending sign-in cookie; the code then
 * comes to the same callback (lib/auth/sign-in-steps.ts).
 */
import "server-only";
import NextAuth from "next-auth";
import type { Db } from "../../db/client";
import { trustForwardedHostForNextAuth } from "../env";
import { AppError } from "../errors";
import { errorResponse } from "../http";
import { unauthenticatedHashGate } from "../security/hash-gate";
import { requestPublicOrigin } from "../security/public-url";
import { getAuthOptions } from "./options";
import { isHttpsRequest } from "./session-cookie";
import { clientAddress, takeAttempt } from "./sign-in-throttle";
import { PENDING_SIGN_IN_COOKIE, PENDING_SIGN_IN_MS, readPendingSignIn } from "./pending-sign-in";
import { type SignInContext, withSignInContext } from "./sign-in-context";
import { passkeyAttemptEmail } from "./sign-in-steps";

// Set here, the one module every next-auth request loads, whether under `npm start` or `next dev`.
trustForwardedHostForNextAuth();

/** The catch-all route's parameters. */
export type Context = { params: Promise<{ nextauth: string[] }> };

/** Handle one request to `/api/auth/[...nextauth]`, over the database handle `db` gives. */
export async function handleNextAuth(db: () => Db, request: Request, context: Context): Promise<Response> {
  const { nextauth } = await context.params;
  if (request.method !== "POST" || nextauth[0] !== "callback" || nextauth[1] !== "credentials")
    return NextAuth(getAuthOptions(db, isHttpsRequest(request)))(request, context);
  // A body that is not a form still counts as an attempt (under an empty email); next-auth refuses it itself.
  const form = await request
    .clone()
    .formData()
    .catch(() => null);
  const address = clientAddress(request.headers);
  const slot: SignInContext = {
    address,
    pendingToken: cookieValue(request.headers.get("cookie"), PENDING_SIGN_IN_COOKIE),
    origin: requestPublicOrigin(request),
  };
  try {
    // The second step counts against the account the pending sign-in belongs to, like its password did;
    // a passkey's answer against the passkey's owner. (Read in the try: in cluster mode the pending
    // sign-in is in Redis, whose outage answers 503.)
    const passkey = form?.get("passkey");
    const email =
      typeof passkey === "string"
        ? await passkeyAttemptEmail(db(), passkey, slot.pendingToken)
        : form?.get("code") && !form.get("password")
          ? ((await readPendingSignIn(slot.pendingToken))?.email ?? "")
          : form?.get("email");
    // Refused before counting: a flood that fills the hashing queue must not lock the account out.
    if (unauthenticatedHashGate.full()) throw new AppError("auth.rate_limited", "The server is busy; try again in a moment.", undefined, 1);
    await takeAttempt("signIn", { email: typeof email === "string" ? email : "", address });
  } catch (error) {
    return errorResponse(error);
  }
  const response: Response = await withSignInContext(slot, () => NextAuth(getAuthOptions(db, isHttpsRequest(request)))(request, context));
  if (slot.startedPending) return secondFactorOwed(request, slot.startedPending);
  // Signed in (or sent back to the password): the pending sign-in's cookie has done its work.
  if (!slot.pendingToken || response.status !== 200) return response;
  const done = new Response(response.body, response);
  done.headers.append("set-cookie", pendingCookie(request, "", 0));
  return done;
}

// The answer to a right password when a code is owed: `auth.second_factor_required`, and the
// pending sign-in's token in an HttpOnly cookie only the credentials callback receives.
function secondFactorOwed(request: Request, token: string): Response {
  const response = errorResponse(
    new AppError("auth.second_factor_required", "Enter the code from your authenticator app, or a recovery code."),
  );
  response.headers.append("set-cookie", pendingCookie(request, token, PENDING_SIGN_IN_MS / 1000));
  return response;
}

function pendingCookie(request: Request, value: string, maxAgeSeconds: number): string {
  const secure = isHttpsRequest(request) ? "; Secure" : "";
  return `${PENDING_SIGN_IN_COOKIE}=${value}; Path=/api/auth/callback/credentials; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure}`;
}

// The value of cookie `name` in a `Cookie` request header, or undefined.
function cookieValue(header: string | null, name: string): string | undefined {
  for (const part of header?.split(";") ?? []) {
    const at = part.indexOf("=");
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim() || undefined;
  }
  return undefined;
}
