/**
 * next-auth configuration: email + password (Credentials) with JWT sessions. Built lazily so
 * `next build` never reads or creates secrets.
 */
import "server-only";
import path from "node:path";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { getDb } from "../../db/client";
import { recordAudit } from "../../db/queries/audit";
import { getUserWithPasswordByEmail } from "../../db/queries/users";
import { readOrCreateSecretFile } from "../crypto";
import { dataDir } from "../env";
import { verifyPassword } from "./password";

let cached: NextAuthOptions | undefined;

/** `NEXTAUTH_SECRET`, or one generated once into the data directory. */
export function nextAuthSecret(): string {
  return process.env.NEXTAUTH_SECRET || readOrCreateSecretFile(path.join(dataDir(), "nextauth.secret"));
}

/** The next-auth options (cached). */
export function getAuthOptions(): NextAuthOptions {
  cached ??= {
    secret: nextAuthSecret(),
    session: { strategy: "jwt", maxAge: 30 * 24 * 3600 },
    pages: { signIn: "/signin" },
    providers: [
      CredentialsProvider({
        name: "Email and password",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials) {
          if (!credentials?.email || !credentials.password) return null;
          const user = getUserWithPasswordByEmail(getDb(), credentials.email);
          // A disabled account cannot sign in again (its existing sessions already count as signed out).
          if (!user || user.disabledAt || !(await verifyPassword(credentials.password, user.passwordHash))) return null;
          return { id: user.id, email: user.email, name: user.name };
        },
      }),
    ],
    events: {
      signIn({ user }) {
        recordAudit(getDb(), { actorId: user.id, action: "user.sign_in", target: user.id });
      },
    },
    callbacks: {
      // Only the user id travels in the token; admin flags and memberships are read fresh per request.
      jwt({ token, user }) {
        if (user) token.sub = user.id;
        return token;
      },
      session({ session, token }) {
        if (session.user) (session.user as { id?: string }).id = token.sub;
        return session;
      },
    },
  };
  return cached;
}
