/**
 * The account's use cases: signing in and up, the password, the sessions, the user's own model
 * settings, and the instance's liveness. Each binds the database handle for lib/auth and lib/models.
 */
import "server-only";
import type { z } from "zod";
import { getDb, pingDb } from "../../db/client";
import { getUserById } from "../../db/queries/users";
import { changePassword as changePasswordIn, signOutEverywhere as signOutEverywhereIn } from "../auth/account";
import { isFreshInstance } from "../auth/first-run";
import { type Context, handleNextAuth } from "../auth/nextauth-handler";
import { handleAuthWithSso } from "../auth/sso/sso-handler";
import { appAccessEffects } from "./access-effects";
import { registerUser } from "../auth/register";
import { clientAddress } from "../auth/sign-in-throttle";
import { SecretKeyError } from "../crypto";
import { APP_VERSION } from "../env";
import { isDraining } from "../shutdown";
import { testUserModel } from "../models/model-test";
import { type modelSettingsSchema, modelSettingsView, updateModelSettings } from "../models/settings-service";
import { workspaceModelChoice } from "../models/workspace-default";
import { oauthRequestOrigin } from "../runtime/oauth-deps";
import { configuredPublicOrigin } from "../security/public-url";
import type { SessionUser } from "../auth/session";
import type { WorkspaceCaller } from "../auth/workspace";

export { modelSettingsSchema } from "../models/settings-service";

/** next-auth's own endpoints (`/api/auth/*`: sign-in, sign-out, session, SSO providers) with sign-in throttling and the SSO-only rule in front. */
export function handleSignIn(request: Request, context: Context): Promise<Response> {
  return handleAuthWithSso(getDb, request, context, appAccessEffects(), handleNextAuth);
}

/** Whether no account exists yet (the sign-in and sign-up pages then ask for the setup code). */
export async function freshInstance(): Promise<boolean> {
  return await isFreshInstance(getDb());
}

/**
 * Sign up (open registration, or the first account with the setup code), or an administrator adding
 * a user. Self sign-up answers the same for a new and a taken email, so it reveals no accounts.
 */
export async function register(request: Request, body: unknown, callerId: string | null) {
  const db = getDb();
  const byAdmin = !!callerId && !!(await getUserById(db, callerId))?.isAdmin;
  const user = await registerUser(db, body, { byAdmin, address: clientAddress(request.headers) });
  if (byAdmin && user) return { id: user.id, email: user.email, name: user.name, isAdmin: user.isAdmin };
  const { email, name } = body as { email: string; name: string };
  return { email: String(email).trim().toLowerCase(), name: String(name).trim() };
}

/** Change the caller's password (throttled like a sign-in); their other sessions end. */
export function changePassword(user: SessionUser, request: Request, body: unknown) {
  const actor = { id: user.id, email: user.email, sessionId: user.sessionId, address: clientAddress(request.headers) };
  return changePasswordIn(getDb(), actor, body);
}

/** Sign out of all devices: every session of the user ends. */
export async function signOutEverywhere(userId: string) {
  return await signOutEverywhereIn(getDb(), userId);
}

// The workspace the view is read in: its default model can be what wins.
async function viewWorkspace(caller: WorkspaceCaller) {
  return {
    name: caller.workspace.name,
    personal: caller.workspace.personal,
    choice: await workspaceModelChoice(getDb(), caller.workspaceId),
  };
}

/** The caller's model settings (API key masked) and which model is in effect in their workspace. */
export async function userModelSettings(caller: WorkspaceCaller) {
  return await modelSettingsView(getDb(), caller.id, await viewWorkspace(caller));
}

/** Change the caller's provider, model, base URL or key; answers the view in their workspace. */
export async function setUserModelSettings(caller: WorkspaceCaller, input: z.infer<typeof modelSettingsSchema>) {
  return await updateModelSettings(getDb(), caller.id, input, await viewWorkspace(caller));
}

/** One short request to the model the caller would chat with in their workspace; never throws for provider failures. */
export async function testCallerModel(caller: { id: string; workspaceId: string }) {
  const db = getDb();
  return await testUserModel(db, caller.id, await workspaceModelChoice(db, caller.workspaceId));
}

/**
 * The public URL in use, for an administrator's account page: the OAuth callback a Connect from this
 * request's origin comes back to, and whether SWITCHBOARD_PUBLIC_URL is set.
 */
export function publicUrlInUse(headers: Headers): { callbackUrl: string; configured: boolean } {
  return { callbackUrl: `${oauthRequestOrigin({ headers })}/api/oauth/callback`, configured: !!configuredPublicOrigin() };
}

/** Liveness and database reachability: the health answer and its status. */
export async function health(): Promise<{ status: number; body: Record<string, unknown> }> {
  try {
    await pingDb(getDb());
    return { status: 200, body: { ok: true, version: APP_VERSION, database: "ok" } };
  } catch (error) {
    const message = error instanceof SecretKeyError ? error.message : "The database cannot be opened.";
    return { status: 503, body: { ok: false, version: APP_VERSION, database: "error", message } };
  }
}

/** Readiness: `health()`, except that a process shutting down answers 503 `draining` at once. */
export async function readiness(): Promise<{ status: number; body: Record<string, unknown> }> {
  if (isDraining()) return { status: 503, body: { ok: false, version: APP_VERSION, draining: true } };
  return health();
}
