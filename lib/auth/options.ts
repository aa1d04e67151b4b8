/**
 * next-auth configuration: email + password (Credentials), then a second-factor code when the user
 * has one (lib/auth/sign-in-steps.ts), with JWT sessions. The JWT carries a
 * server-side session id (lib/auth/sessions.ts) so that sessions can be ended. Built lazily so
 * `next build` never reads or creates secrets.
 */
import "server-only";
import path from "node:path";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import type { Db } from "../../db/client";
import { recordAudit } from "../../db/queries/audit";
import { readOrCreateSecretFile } from "../crypto";
import { dataDir, nextAuthSecretSetting } from "../env";
import { redact } from "../redact";
import { ACCOUNT_DISABLED_SIGN_IN, verifyCredentials } from "./credentials";
import { sessionCookieOptions } from "./session-cookie";
import { sessionLifetimeMs } from "./session-policy";
import { endOneSession, resolveSession, startSession } from "./sessions";
import { clearAccountAttempts, clientAddress } from "./sign-in-throttle";
import { signInContext } from "./sign-in-context";
import { beginSecondStep, completeSecondStep, passkeySignIn, SECOND_FACTOR_SIGN_IN } from "./sign-in-steps";

let cached: NextAuthOptions | undefined;

/** `NEXTAUTH_SECRET`, or one generated once into the data directory. */
export function nextAuthSecret(): string {
  return nextAuthSecretSetting() || readOrCreateSecretFile(path.join(dataDir(), "nextauth.secret"));
}

/**
 * The next-auth options (cached). `db` gives the database handle at each callback (the handle may
 * be reopened while the options live); lib/use-cases/sign-in.ts binds it. `https`: the request came
 * over https, so the session cookie is the `__Host-` one.
 */
export function getAuthOptions(db: () => Db, https = false): NextAuthOptions {
  cached ??= {
    secret: nextAuthSecret(),
    session: { strategy: "jwt", maxAge: Math.floor(sessionLifetimeMs() / 1000) },
    pages: { signIn: "/signin" },
    providers: [
      CredentialsProvider({
        name: "Email and password",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        // Throttling happens before next-auth sees the request (lib/auth/nextauth-handler.ts), where a 429 can be sent.
        async authorize(credentials, request) {
          const form = credentials as Record<string, string | undefined> | undefined;
          // The second step: a code for the pending sign-in the request's cookie names (sign-in-steps.ts).
          if (form?.code && !form.password) return completeSecondStep(db(), form.code, signInContext());
          // A passkey's answer: a second step, or a passwordless sign-in (sign-in-steps.ts).
          if (form?.passkey && !form.password) return passkeySignIn(db(), form.passkey, signInContext());
          if (!credentials?.email || !credentials.password) return null;
          const check = await verifyCredentials(db(), credentials.email, credentials.password);
          // next-auth answers a thrown error with 401 and `error=<message>`: the form names the reason.
          if (check.outcome === "disabled") throw new Error(ACCOUNT_DISABLED_SIGN_IN);
          if (check.outcome !== "ok") return null;
          const { user } = check;
          // A right password with a factor owed is not a sign-in yet: the account's attempts stay counted.
          if (await beginSecondStep(db(), user, signInContext())) throw new Error(SECOND_FACTOR_SIGN_IN);
          await clearAccountAttempts(credentials.email, clientAddress(request?.headers ?? {}));
          return { id: user.id, email: user.email, name: user.name };
        },
      }),
    ],
    callbacks: {
      // Only the user id and the session id travel in the token; everything else is read per request.
      async jwt({ token, user }) {
        if (user) {
          token.sub = user.id;
          token.sid = await startSession(db(), user.id);
        } else if (typeof token.sid !== "string" || !(await resolveSession(db(), token.sid))) {
          // next-auth's /api/auth/session answers "signed out" and clears the cookie when this throws.
          throw new Error("The session has ended.");
        }
        return token;
      },
      session({ session, token }) {
        if (session.user) (session.user as { id?: string }).id = token.sub;
        return session;
      },
      // Redirects stay on the origin next-auth was reached at (the public URL, see proxy.ts).
      redirect({ url, baseUrl }) {
        if (url.startsWith("/")) return `${baseUrl}${url}`;
        return new URL(url).origin === baseUrl ? url : baseUrl;
      },
    },
    logger: {
      // An ended session reaching next-auth's session endpoint is routine, not a server error.
      error(code, metadata) {
        if (code === "JWT_SESSION_ERROR") return;
        const detail = metadata instanceof Error ? metadata.message : ((metadata as { message?: string })?.message ?? "");
        console.error(`[next-auth] ${code}`, redact(detail));
      },
      warn(code) {
        console.warn(`[next-auth] ${code}`);
      },
      debug() {},
    },
    events: {
      async signIn({ user }) {
        await recordAudit(db(), { actorId: user.id, action: "user.sign_in", target: user.id });
      },
      async signOut({ token }) {
        if (typeof token?.sid === "string") await endOneSession(db(), token.sid);
      },
    },
  };
  return withSessionCookie(cached, https);
}

const variants = new Map<boolean, NextAuthOptions>();

// Over https the session cookie is `__Host-`-prefixed (lib/auth/session-cookie.ts); one options
// object per scheme, both over the same providers and callbacks.
function withSessionCookie(base: NextAuthOptions, https: boolean): NextAuthOptions {
  const known = variants.get(https);
  if (known) return known;
  const options = { ...base, ...sessionCookieOptions(https) };
  variants.set(https, options);
  return options;
}
