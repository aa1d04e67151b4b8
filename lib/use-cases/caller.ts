/**
 * Who is calling, for routes and pages: the session and workspace checks of lib/auth bound to the
 * process's database handle. Every route handler calls one of these first (tests/unit/app/route-guards.test.ts).
 */
import "server-only";
import { getDb } from "../../db/client";
import { type SessionUser, requirePageUser as pageUserOver, requireUser as userOver } from "../auth/session";
import { sessionUserId as sessionUserIdOver } from "../auth/session-token";
import {
  type RequireWorkspaceOptions,
  type WorkspaceCaller,
  requireInstanceAdmin as instanceAdminOver,
  requirePageWorkspace as pageWorkspaceOver,
  requireWorkspaceById as workspaceByIdOver,
  requireWorkspace as workspaceOver,
  lostWorkspaceAccess as lostAccessOver,
} from "../auth/workspace";
import { AppError, type ErrorBody } from "../errors";
import { authenticateToken, bearerToken, TOKEN_PREFIX, type TokenScope } from "../auth/personal-tokens";
import { authenticateOAuthBearer } from "./oauth-server";
import { enforceRequestRate } from "../quotas";
import { redirectToChat as chatRedirectOver, redirectToWorkspaceSection as sectionRedirectOver } from "../auth/workspace-redirect";

export type { SessionUser, WorkspaceCaller };
export { slugOf } from "../auth/workspace";
/** Where `/signin?next=…` may send the user back to after signing in (lib/auth/return-path.ts), or null. */
export { returnPath as signInReturnPath } from "../auth/return-path";

/**
 * The signed-in user, or an `auth.unauthorized` AppError (401). A route passes its `request` so the
 * cookie is read from it (it may run on the direct lane, outside Next's request scope).
 */
export function requireUser(request?: Request): Promise<SessionUser> {
  return userOver(getDb(), request);
}

/** Who calls a route open to personal access tokens. */
export interface ApiCaller {
  id: string;
  email: string;
  name: string;
  isAdmin: boolean;
  /** The one workspace of the personal access token the request came with; null for the browser session. */
  tokenWorkspaceId: string | null;
}

/**
 * The caller by `Authorization: Bearer sbp_…` (a personal access token with `scope`: a 401 `token.*`
 * otherwise), else by the session as `requireUser`. A bearer header wins over a cookie sent with it.
 */
export async function requireUserOrToken(request: Request, scope: TokenScope): Promise<ApiCaller> {
  const secret = bearerToken(request);
  if (secret === null) {
    const { id, email, name, isAdmin } = await requireUser(request);
    return { id, email, name, isAdmin, tokenWorkspaceId: null };
  }
  const { user, workspaceId } = await authenticateToken(getDb(), secret, scope);
  await enforceRequestRate(user.id);
  return { ...user, tokenWorkspaceId: workspaceId };
}

/**
 * The caller by `Authorization: Bearer …` only, for the MCP gateway: a personal access token
 * (`sbp_…`) with `scope`, or an access token of Switchboard's authorization server whose audience
 * is exactly the endpoint the request is for (lib/use-cases/oauth-server.ts). No session cookie is
 * looked at, so a browser's ambient credentials never reach it. Without a bearer header it is a 401
 * `token.invalid`.
 */
export async function requireToken(request: Request, scope: TokenScope): Promise<ApiCaller & { tokenWorkspaceId: string }> {
  const secret = bearerToken(request);
  if (secret === null) throw new AppError("token.invalid", "Send a personal access token as Authorization: Bearer sbp_….");
  // The authorization server's tokens are for the gateway's endpoints only (their one scope is `mcp`).
  if (!secret.startsWith(TOKEN_PREFIX) && scope === "mcp") {
    const { user, workspaceId } = await authenticateOAuthBearer(request, secret);
    await enforceRequestRate(user.id);
    return { id: user.id, email: user.email, name: user.name, isAdmin: user.isAdmin, tokenWorkspaceId: workspaceId };
  }
  const { user, workspaceId } = await authenticateToken(getDb(), secret, scope);
  await enforceRequestRate(user.id);
  return { id: user.id, email: user.email, name: user.name, isAdmin: user.isAdmin, tokenWorkspaceId: workspaceId };
}

/** The signed-in user for a page; redirects to /signin otherwise, and to /enrol when a second-factor policy says so. */
export function requirePageUser(): Promise<SessionUser> {
  return pageUserOver(getDb());
}

/** The signed-in user for the enrolment page: like `requirePageUser`, never sent to /enrol. */
export function requireEnrollingUser(): Promise<SessionUser> {
  return pageUserOver(getDb(), { enrolling: true });
}

/** The user id of the request's live session, or null (routes open to the signed-out too). */
export function sessionUserId(request?: Request): Promise<string | null> {
  return sessionUserIdOver(getDb(), request);
}

/** The caller and the workspace the request names (path, else header, else personal); 404 for a non-member, 403 below `options.role`. */
export function requireWorkspace(request: Request, options?: RequireWorkspaceOptions): Promise<WorkspaceCaller> {
  return workspaceOver(getDb(), request, options);
}

/** Like `requireWorkspace` for a workspace named by id in the path (`/api/workspaces/:id/…`). */
export function requireWorkspaceById(id: string, options?: RequireWorkspaceOptions): Promise<WorkspaceCaller> {
  return workspaceByIdOver(getDb(), id, options);
}

/** The signed-in instance administrator, or a 403. */
export function requireInstanceAdmin(): Promise<SessionUser> {
  return instanceAdminOver(getDb());
}

/** A workspace page's caller: redirects to sign-in when signed out, 404 when not a member. */
export function requirePageWorkspace(slug: string): Promise<WorkspaceCaller> {
  return pageWorkspaceOver(getDb(), slug);
}

/** Why the signed-in `user` lost workspace `slug` (`workspace.removed`: who removed them and when), or null when they did not. */
export async function lostWorkspaceAccess(user: SessionUser, slug: string): Promise<ErrorBody | null> {
  const error = await lostAccessOver(getDb(), user, slug);
  return error ? { code: error.code, message: error.message } : null;
}

/** Redirect `/<section>` to that section of the last workspace page opened, else the personal one. */
export function redirectToWorkspaceSection(section: "chat" | "servers" | "settings"): Promise<never> {
  return sectionRedirectOver(getDb(), section);
}

/** Redirect `/chat/:id` to the chat's own workspace; someone else's chat stays not found (null). */
export function redirectToChat(id: string): Promise<string | null> {
  return chatRedirectOver(getDb(), id);
}
