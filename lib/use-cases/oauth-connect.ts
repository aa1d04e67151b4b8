/** Connect / Disconnect of a workspace server in the web app: the rules of lib/servers/connect.ts plus the live pool. */
import "server-only";
import { getDb } from "../../db/client";
import { getServerByIdUnscoped } from "../../db/queries/servers";
import { getMembershipRole } from "../../db/queries/workspaces";
import type { ServerDefinition } from "../mcp";
import { oauthCallbackResponse } from "../oauth/web/callback";
import { clientMetadataDocument } from "../oauth/web/client-metadata";
import { appOAuthDeps, oauthRequestOrigin } from "../runtime/oauth-deps";
import {
  adoptSharedAccount,
  beginConnect,
  endConnect,
  mayConnectForEveryone,
  type ConnectCaller,
  type ConnectOptions,
} from "../servers/connect";
import { credentialModeOf } from "../servers/credential-mode";
import { appPool, memberServerDefinition, workspaceServerDefinition } from "../runtime/engine";

export { oauthRequestOrigin } from "../runtime/oauth-deps";

/**
 * Start the caller's authorization: `{status: "redirect", url}` or `{status: "authorized"}`. The
 * authorization server sends the browser back to `origin` (the one the Connect came from, see
 * `oauthRequestOrigin`), whose callback then finishes the flow.
 */
export async function connectServer(caller: ConnectCaller, serverId: string, origin: string, options: ConnectOptions = {}) {
  const db = getDb();
  const server = await workspaceServerDefinition(db, caller, serverId);
  const result = await beginConnect(db, appOAuthDeps(origin), caller, server, options);
  if (result.status === "authorized") await afterAuthorized(caller.id, server, { forEveryone: options.forEveryone === true });
  return result;
}

/**
 * Disconnect: revoke and forget the tokens, close the connection (every member's, for a shared
 * server), and connect the caller again without tokens, which ends in `needs_authorization`.
 */
export async function disconnectServer(caller: ConnectCaller, serverId: string) {
  const db = getDb();
  const server = await workspaceServerDefinition(db, caller, serverId);
  const { shared, ...result } = await endConnect(db, appOAuthDeps(), caller, server);
  const pool = appPool();
  if (shared) await pool.closeServer(serverId);
  else await pool.close(caller.id, serverId);
  // Connect again without tokens, so the status says what the person now needs (authorization)
  // rather than idle: pages no longer connect servers as a side effect of being opened.
  return { ...result, status: (await pool.discover(caller.id, [server]))[0] };
}

/**
 * The server the OAuth callback completes for `userId` (any workspace they belong to), or null. A
 * Connect for everyone completes only while the server is still `shared` and the user still an
 * owner or admin of its workspace: otherwise nothing is exchanged or stored.
 */
export async function callbackServer(userId: string | null, serverId: string, forEveryone = false): Promise<ServerDefinition | null> {
  if (!userId) return null;
  const db = getDb();
  if (forEveryone) {
    const record = await getServerByIdUnscoped(db, serverId);
    if (!record || credentialModeOf(record.config) !== "shared") return null;
    if (!mayConnectForEveryone(await getMembershipRole(db, record.workspaceId, userId))) return null;
  }
  return await memberServerDefinition(db, userId, serverId);
}

/**
 * After an authorization: reconnect the user. After a Connect for everyone the user's shared
 * tokens become the server's account and every member's connection is closed, so their next call
 * uses them.
 */
export async function afterAuthorized(userId: string, server: ServerDefinition, grant: { forEveryone: boolean }): Promise<void> {
  const record = await getServerByIdUnscoped(getDb(), server.id);
  if (grant.forEveryone && record) {
    await adoptSharedAccount(getDb(), userId, record);
    await appPool().closeServer(server.id);
  }
  await appPool().session(userId, server).reconnect();
}

/**
 * Finish an authorization the authorization server sent the browser back with: the state must be
 * the signed-in user's own (`userId`, null when signed out), unused and fresh; the code is exchanged
 * for the redirect URI on this request's origin (the one it was issued for), then the server reconnects.
 */
export function finishAuthorization(request: Request, userId: string | null): Promise<Response> {
  return oauthCallbackResponse(appOAuthDeps(oauthRequestOrigin(request)), {
    url: new URL(request.url),
    userId,
    findServer: async (serverId, forEveryone) => await callbackServer(userId, serverId, forEveryone),
    onAuthorized: async (server, grant) => {
      if (userId) await afterAuthorized(userId, server, grant);
    },
  });
}

/** The app's Client ID Metadata Document for the origin the request came to. */
export function oauthClientMetadata(request: Request) {
  return clientMetadataDocument(oauthRequestOrigin(request));
}
