/**
 * The session cookie's name. Over https it is `__Host-next-auth.session-token`: the browser keeps a
 * `__Host-` cookie only when it was set Secure, for Path=/ and without a Domain, so no sibling
 * subdomain or plain-http page can plant or shadow it. Over https only that name is read (the
 * unprefixed one is refused); over plain http (loopback, development) the unprefixed name is used.
 * next-auth's handler (options.ts) and the session readers (session-token.ts: Next's routes and pages,
 * and the direct lane) decide https the same way, from the request's public origin.
 */
import { requestPublicOrigin } from "../security/public-url";

/** The cookie name over plain http. */
export const SESSION_COOKIE = "next-auth.session-token";
/** The cookie name over https. */
export const HOST_SESSION_COOKIE = "__Host-next-auth.session-token";

/** Whether the request reached the app over https (its public origin: `SWITCHBOARD_PUBLIC_URL`, or the loopback request's scheme). */
export function isHttpsRequest(request: { headers: Pick<Headers, "get"> }): boolean {
  return requestPublicOrigin(request).startsWith("https://");
}

/** The one session cookie name read and written for a request over https or not. */
export function sessionCookieName(https: boolean): string {
  return https ? HOST_SESSION_COOKIE : SESSION_COOKIE;
}

/** next-auth's `useSecureCookies` and session-cookie settings for https or not. */
export function sessionCookieOptions(https: boolean) {
  return {
    useSecureCookies: https,
    cookies: {
      sessionToken: { name: sessionCookieName(https), options: { httpOnly: true, sameSite: "lax" as const, path: "/", secure: https } },
    },
  };
}
