/**
 * The `/api/auth/*` entry with single sign-on in front of next-auth's own handler
 * (lib/auth/nextauth-handler.ts): a request for an SSO provider (`signin/<id>`, `callback/<id>`) gets
 * next-auth options with that provider, and a password sign-in is refused with `auth.sso_only`
 * while SSO-only mode is on (docs/sso.md#sso-only-mode). Everything else passes through unchanged.
 */
import "server-only";
import NextAuth from "next-auth";
import type { Db } from "../../../db/client";
import type { AccessEffects } from "../../domain/access-effects";
import { errorResponse } from "../../http";
import type { Context } from "../nextauth-handler";
import { getAuthOptions } from "../options";
import { PENDING_SIGN_IN_COOKIE, PENDING_SIGN_IN_MS } from "../pending-sign-in";
import { returnPath } from "../return-path";
import { isHttpsRequest } from "../session-cookie";
import { type SignInContext, withSignInContext } from "../sign-in-context";
import { clientAddress } from "../sign-in-throttle";
import { ssoProviderIdOf, withSsoProvider } from "./next-auth-sso";
import { assertPasswordAllowed } from "./sso-only";

/** Handle one `/api/auth/*` request: SSO providers and the SSO-only rule here, the rest by `next`. */
export async function handleAuthWithSso(
  db: () => Db,
  request: Request,
  context: Context,
  effects: AccessEffects,
  next: (db: () => Db, request: Request, context: Context) => Promise<Response>,
): Promise<Response> {
  const { nextauth } = await context.params;
  if (request.method === "POST" && nextauth[0] === "callback" && nextauth[1] === "credentials") {
    const form = await request
      .clone()
      .formData()
      .catch(() => null);
    const email = form?.get("email");
    try {
      if (form?.get("password") && typeof email === "string") await assertPasswordAllowed(db(), email);
    } catch (error) {
      return errorResponse(error);
    }
    return next(db, request, context);
  }
  const providerId = ssoProviderIdOf(nextauth);
  if (!providerId) return next(db, request, context);
  const https = isHttpsRequest(request);
  const options = await withSsoProvider(getAuthOptions(db, https), db, providerId, effects);
  if (!options) return signInPage("/signin?error=sso.unavailable");
  const returnTo = ssoReturnPath(request.headers.get("cookie"));
  const slot: SignInContext = { address: clientAddress(request.headers), ...(returnTo ? { returnTo } : {}) };
  const response: Response = await withSignInContext(slot, () => NextAuth(options)(request, context));
  if (!slot.startedPending) return response;
  // A second factor is owed: the pending sign-in's cookie goes with the redirect to the code form.
  const owed = new Response(response.body, response);
  const secure = https ? "; Secure" : "";
  owed.headers.append(
    "set-cookie",
    `${PENDING_SIGN_IN_COOKIE}=${slot.startedPending}; Path=/api/auth/callback/credentials; HttpOnly; SameSite=Strict; Max-Age=${PENDING_SIGN_IN_MS / 1000}${secure}`,
  );
  return owed;
}

// next-auth keeps the sign-in's `callbackUrl` in this cookie (the `__Secure-` one over https) until its callback.
const CALLBACK_URL_COOKIE = /(?:^|;\s*)(?:__Secure-)?next-auth\.callback-url=([^;]*)/;

/**
 * The page a single sign-on was started for (the sign-in page's `next`, sent as next-auth's
 * `callbackUrl`), when the sign-in page may return there (return-path.ts): only its path is kept.
 */
export function ssoReturnPath(cookieHeader: string | null): string | undefined {
  const raw = CALLBACK_URL_COOKIE.exec(cookieHeader ?? "")?.[1];
  if (!raw) return undefined;
  try {
    return returnPath(new URL(decodeURIComponent(raw), "http://localhost").pathname) ?? undefined;
  } catch {
    return undefined;
  }
}

// A relative Location (RFC 9110 §10.2.2): the browser stays on the origin it came in on.
function signInPage(location: string): Response {
  return new Response(null, { status: 303, headers: { location } });
}
