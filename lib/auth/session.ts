/**
 * Who is calling, over a database handle the caller passes in. Routes and pages reach these
 * through lib/use-cases/caller.ts, which binds the handle: every route handler calls
 * `requireUser()` itself; pages call `requirePageUser()`, which redirects to sign-in.
 */
import "server-only";
import { redirect } from "next/navigation";
import type { Db } from "../../db/client";
import { generationOf } from "../../db/generation";
import { getUserById, type UserRecord } from "../../db/queries/users";
import { getPersonalWorkspaceId } from "../../db/queries/workspaces";
import { AppError } from "../errors";
import { currentSession, sessionOfDisabledAccount } from "./session-token";
import { enforceRequestRate } from "../quotas";
import { LookupCache } from "../lookup-cache";
import { mustEnrol } from "./mfa-policy";
import { returnPath } from "./return-path";

/** The signed-in user with their current workspace. */
export interface SessionUser extends UserRecord {
  workspaceId: string;
  /** The server-side session this request belongs to (lib/auth/sessions.ts). */
  sessionId: string;
}

// Each user's record and personal workspace by user id, valid until the next change to users,
// workspaces or memberships (db/generation.ts): a deleted or disabled account is seen at once.
const users = new LookupCache<{ user: UserRecord; workspaceId: string }>(10_000);

async function currentUser(db: Db, request?: Request): Promise<SessionUser | null> {
  const session = await currentSession(db, request);
  if (!session) return null;
  // The token may outlive its user (deleted account): check the database, not just the JWT.
  const found = await users.readAsync(session.userId, generationOf(db), async () => {
    const user = await getUserById(db, session.userId);
    const workspaceId = user && (await getPersonalWorkspaceId(db, user.id));
    return user && workspaceId ? { user, workspaceId } : null;
  });
  return found ? { ...found.user, workspaceId: found.workspaceId, sessionId: session.sessionId } : null;
}

/**
 * The signed-in user, or an `unauthorized` AppError (401 JSON at the boundary). A route passes its
 * `request` so the cookie is read from it (it may run on the direct lane, outside Next's scope).
 */
export async function requireUser(db: Db, request?: Request): Promise<SessionUser> {
  const user = await currentUser(db, request);
  if (!user) {
    // The account's own browser is told why it was signed out; a request without its session is not.
    if (await sessionOfDisabledAccount(db, request)) throw new AppError("auth.account_disabled", ACCOUNT_DISABLED);
    throw new AppError("auth.unauthorized", "Sign in first.");
  }
  // Every API route passes here first: the one place the per-user request rate is counted.
  await enforceRequestRate(user.id);
  return user;
}

/** What a disabled account is told, by the API and at sign-in. */
export const ACCOUNT_DISABLED = "Your account is disabled; ask an administrator to enable it again.";

/**
 * The signed-in user for a page; redirects to /signin otherwise (saying so when the account was
 * disabled), and to /enrol while a second-factor policy covers them and they have no factor yet.
 * `options.enrolling`: the enrolment page itself, which must not send them there again.
 * `options.returnTo`: a path the sign-in page sends the user back to (`returnPath` decides which may be).
 */
export async function requirePageUser(db: Db, options: { enrolling?: boolean; returnTo?: string } = {}): Promise<SessionUser> {
  const user = await currentUser(db);
  const back = options.returnTo && returnPath(options.returnTo) ? `?next=${encodeURIComponent(options.returnTo)}` : "";
  if (!user) redirect((await sessionOfDisabledAccount(db)) ? "/signin?reason=disabled" : `/signin${back}`);
  if (!options.enrolling && (await mustEnrol(db, user))) redirect("/enrol");
  return user;
}
