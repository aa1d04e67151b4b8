/**
 * next-auth's route handler with sign-in throttling in front: a credentials sign-in is counted per
 * account and per client address before next-auth checks the password, and a throttled one gets
 * 429 with `Retry-After` (next-auth itself can only answer 401).
 */
import "server-only";
import NextAuth from "next-auth";
import type { Db } from "../../db/client";
import { trustForwardedHostForNextAuth } from "../env";
import { AppError } from "../errors";
import { errorResponse } from "../http";
import { unauthenticatedHashGate } from "../security/hash-gate";
import { getAuthOptions } from "./options";
import { isHttpsRequest } from "./session-cookie";
import { clientAddress, takeAttempt } from "./sign-in-throttle";

// Set here, the one module every next-auth request loads, whether under `npm start` or `next dev`.
trustForwardedHostForNextAuth();

/** The catch-all route's parameters. */
export type Context = { params: Promise<{ nextauth: string[] }> };

/** Handle one request to `/api/auth/[...nextauth]`, over the database handle `db` gives. */
export async function handleNextAuth(db: () => Db, request: Request, context: Context): Promise<Response> {
  const { nextauth } = await context.params;
  if (request.method === "POST" && nextauth[0] === "callback" && nextauth[1] === "credentials") {
    // A body that is not a form still counts as an attempt (under an empty email); next-auth refuses it itself.
    const form = await request
      .clone()
      .formData()
      .catch(() => null);
    const email = form?.get("email");
    try {
      // Refused before counting: a flood that fills the hashing queue must not lock the account out.
      if (unauthenticatedHashGate.full())
        throw new AppError("auth.rate_limited", "The server is busy; try again in a moment.", undefined, 1);
      takeAttempt("signIn", { email: typeof email === "string" ? email : "", address: clientAddress(request.headers) });
    } catch (error) {
      return errorResponse(error);
    }
  }
  return NextAuth(getAuthOptions(db, isHttpsRequest(request)))(request, context);
}
