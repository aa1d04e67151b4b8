/**
 * The account page's connected clients (docs/gateway.md#the-authorization-server): a user's grants
 * of the authorization server, with the client, the endpoint, when it was made and last used; and
 * revoking one, which deletes the grant with every code, access and refresh token of it.
 */
import type { Db } from "../../db/client";
import { recordAudit } from "../../db/queries/audit";
import {
  deleteOAuthServerGrant,
  getOAuthServerRecord,
  getOAuthServerRecords,
  listOAuthServerGrantsOfUser,
} from "../../db/queries/oauth-server";
import { getWorkspaceBySlug, PERSONAL_SLUG } from "../../db/queries/workspaces";
import { openJson } from "../../db/secrets";
import { AppError } from "../errors";
import { recordKey } from "./adapter";
import { parseGatewayResource } from "./resource";

/** One connected client as the account page lists it (never a token). */
export interface ConnectedClient {
  /** The grant's row key: what `DELETE /api/account/oauth-clients/:id` names. */
  id: string;
  /** The client's self-declared name, or null. */
  clientName: string | null;
  clientId: string;
  /** The endpoint it may use, its workspace slug and server name (null: the whole workspace). */
  resource: string | null;
  workspaceSlug: string | null;
  /** The workspace's name ("Personal" for one's own), else its slug (a workspace since deleted or renamed). */
  workspaceName: string;
  serverName: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
}

interface GrantPayload {
  clientId?: string;
  resources?: Record<string, string>;
}

/** The user's live grants, newest first. */
export async function listConnectedClients(db: Db, userId: string, now = Date.now()): Promise<ConnectedClient[]> {
  const rows = (await listOAuthServerGrantsOfUser(db, userId)).filter((row) => !row.expiresAt || row.expiresAt.getTime() > now);
  const grants = rows.map((row) => ({ row, payload: openJson<GrantPayload>(row.payloadEnc) }));
  const clientIds = [...new Set(grants.map(({ payload }) => payload.clientId).filter((id): id is string => !!id))];
  const names = new Map<string, string>();
  for (const record of await getOAuthServerRecords(
    db,
    clientIds.map((id) => recordKey("Client", id)),
  )) {
    const client = openJson<{ client_id?: string; client_name?: unknown }>(record.payloadEnc);
    if (client.client_id && typeof client.client_name === "string") names.set(client.client_id, client.client_name.slice(0, 100));
  }
  const workspaceNames = new Map<string, string>([[PERSONAL_SLUG, "Personal"]]);
  const listed = grants.map(({ row, payload }) => {
    const resource = Object.keys(payload.resources ?? {})[0] ?? null;
    // The resource was checked against the issuer when it was granted; here only its path is read.
    const target = resource ? parseGatewayResource(resource, resource) : null;
    const clientId = payload.clientId ?? "";
    return {
      id: row.keyHash,
      // A metadata-document client is not stored: its id is its document's URL, shown as is.
      clientName: names.get(clientId) ?? null,
      clientId,
      resource,
      workspaceSlug: target?.slug ?? null,
      workspaceName: target?.slug ?? "—",
      serverName: target?.server ?? null,
      createdAt: row.createdAt,
      lastUsedAt: row.lastUsedAt,
    };
  });
  for (const client of listed) {
    const slug = client.workspaceSlug;
    if (!slug) continue;
    if (!workspaceNames.has(slug)) workspaceNames.set(slug, (await getWorkspaceBySlug(db, slug))?.name ?? slug);
    client.workspaceName = workspaceNames.get(slug) as string;
  }
  return listed;
}

/** Revoke one of `userId`'s grants by its row key; someone else's or an unknown one is `token.client_not_found`. */
export async function revokeConnectedClient(db: Db, userId: string, id: string): Promise<void> {
  const row = /^[0-9a-f]{64}$/.test(id) ? await getOAuthServerRecord(db, id) : null;
  if (row?.model !== "Grant" || row.userId !== userId || !row.grantId)
    throw new AppError("token.client_not_found", "No such connected client on your account.");
  await deleteOAuthServerGrant(db, row.grantId);
  await recordAudit(db, { actorId: userId, action: "user.oauth_client_revoked", target: userId, detail: { clientId: row.clientId } });
}
