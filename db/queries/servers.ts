/**
 * MCP server configs, always scoped by workspace: a server id from another workspace is simply
 * not found. Secret values are encrypted into `secrets_enc`; `config` holds the masked copy.
 */
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../client";
import { newId } from "../ids";
import { mcpServers } from "../schema";
import { openJson, sealJson } from "../secrets";
import { transportOf, type ServerConfig, type ServerDefinition } from "../../lib/mcp/config";
import { mergeSecrets, splitSecrets, type ServerSecrets } from "../server-secrets";
import { bumpGeneration } from "../generation";
import { deleteSharedCredentials } from "./credentials";
import { gated } from "../transaction";
import { all, exec, one } from "../exec";

/** A stored server with its masked config (safe to return to a client). */
export interface ServerRecord {
  id: string;
  workspaceId: string;
  name: string;
  transport: "stdio" | "http";
  config: ServerConfig;
  createdBy: string | null;
  /** For a `shared` server: whose OAuth tokens every member's calls use (null: nobody connected yet). */
  sharedCredentialsUserId: string | null;
  /** Header/env keys (`headers.X`, `env.Y`) each member fills with their own value. */
  memberKeys: string[];
  /** The catalog entry and version it was added from; null for a server typed by hand. */
  catalogEntryId: string | null;
  catalogVersion: string | null;
  createdAt: Date;
  updatedAt: Date;
}

type Row = typeof mcpServers.$inferSelect;

function toRecord(row: Row): ServerRecord {
  const { secretsEnc: _secrets, ...rest } = row;
  return { ...rest, config: row.config as ServerConfig, memberKeys: row.memberKeys ?? [] };
}

function encryptSecrets(secrets: ServerSecrets): string | null {
  return Object.keys(secrets).length ? sealJson(secrets) : null;
}

/** The decrypted secrets of a stored server. */
export async function readServerSecrets(db: Db, ref: { id: string; workspaceId: string }): Promise<ServerSecrets> {
  return gated(db, async () => {
    const row = await one(
      db
        .select({ secretsEnc: mcpServers.secretsEnc })
        .from(mcpServers)
        .where(and(eq(mcpServers.id, ref.id), eq(mcpServers.workspaceId, ref.workspaceId))),
    );
    return row?.secretsEnc ? openJson<ServerSecrets>(row.secretsEnc) : {};
  });
}

/** Every server of a workspace, by name. */
export async function listServersByWorkspace(db: Db, workspaceId: string): Promise<ServerRecord[]> {
  return gated(db, async () => {
    return (await all(db.select().from(mcpServers).where(eq(mcpServers.workspaceId, workspaceId)).orderBy(asc(mcpServers.name)))).map(
      toRecord,
    );
  });
}

/** One server of a workspace, or null (also when it exists in another workspace). */
export async function getServerById(db: Db, ref: { id: string; workspaceId: string }): Promise<ServerRecord | null> {
  return gated(db, async () => {
    const row = await one(
      db
        .select()
        .from(mcpServers)
        .where(and(eq(mcpServers.id, ref.id), eq(mcpServers.workspaceId, ref.workspaceId))),
    );
    return row ? toRecord(row) : null;
  });
}

/**
 * A server by id alone, or null. Only for callers that check membership of its workspace
 * themselves (the OAuth callback, which arrives without a workspace in the request).
 */
export async function getServerByIdUnscoped(db: Db, id: string): Promise<ServerRecord | null> {
  return gated(db, async () => {
    const row = await one(db.select().from(mcpServers).where(eq(mcpServers.id, id)));
    return row ? toRecord(row) : null;
  });
}

/** Whether a workspace already has a server with this name (optionally ignoring one id). */
export async function serverNameTaken(db: Db, workspaceId: string, name: string, exceptId?: string): Promise<boolean> {
  return gated(db, async () => {
    const row = await one(
      db
        .select({ id: mcpServers.id })
        .from(mcpServers)
        .where(and(eq(mcpServers.workspaceId, workspaceId), eq(mcpServers.name, name))),
    );
    return !!row && row.id !== exceptId;
  });
}

/** Store a new server; its secrets are encrypted. */
export async function createServer(
  db: Db,
  input: {
    workspaceId: string;
    name: string;
    config: ServerConfig;
    createdBy: string;
    memberKeys?: string[];
    catalog?: { entryId: string; version: string };
  },
): Promise<ServerRecord> {
  return gated(db, async () => {
    bumpGeneration();
    const { masked, secrets } = splitSecrets(input.config);
    const row = (await one(
      db
        .insert(mcpServers)
        .values({
          id: newId(),
          workspaceId: input.workspaceId,
          name: input.name,
          transport: transportOf(input.config),
          config: masked,
          secretsEnc: encryptSecrets(secrets),
          createdBy: input.createdBy,
          memberKeys: input.memberKeys?.length ? input.memberKeys : null,
          catalogEntryId: input.catalog?.entryId ?? null,
          catalogVersion: input.catalog?.version ?? null,
        })
        .returning(),
    ))!;
    return toRecord(row);
  });
}

/** Replace a server's name and config; returns null when it is not in the workspace. */
export async function updateServer(
  db: Db,
  ref: { id: string; workspaceId: string },
  input: { name: string; config: ServerConfig; memberKeys?: string[]; catalogVersion?: string },
): Promise<ServerRecord | null> {
  return gated(db, async () => {
    bumpGeneration();
    const { masked, secrets } = splitSecrets(input.config);
    const row = (await one(
      db
        .update(mcpServers)
        .set({
          name: input.name,
          transport: transportOf(input.config),
          config: masked,
          secretsEnc: encryptSecrets(secrets),
          ...(input.memberKeys ? { memberKeys: input.memberKeys.length ? input.memberKeys : null } : {}),
          ...(input.catalogVersion ? { catalogVersion: input.catalogVersion } : {}),
          updatedAt: new Date(),
        })
        .where(and(eq(mcpServers.id, ref.id), eq(mcpServers.workspaceId, ref.workspaceId)))
        .returning(),
    ))!;
    return row ? toRecord(row) : null;
  });
}

/** Delete a server; returns whether it existed in the workspace. */
export async function deleteServer(db: Db, ref: { id: string; workspaceId: string }): Promise<boolean> {
  return gated(db, async () => {
    bumpGeneration();
    return (await exec(db.delete(mcpServers).where(and(eq(mcpServers.id, ref.id), eq(mcpServers.workspaceId, ref.workspaceId))))) > 0;
  });
}

/** The engine's view of a stored server: id, name and the full config with secrets decrypted. */
export async function toServerDefinition(db: Db, record: ServerRecord): Promise<ServerDefinition> {
  return gated(db, async () => {
    const secrets = await readServerSecrets(db, record);
    return { id: record.id, name: record.name, config: mergeSecrets(record.config, secrets) };
  });
}

/**
 * Record the owner/admin whose "Connect for everyone" tokens a `shared` server uses (null: nobody's).
 * Every other person's shared tokens for it are forgotten: only the account in use keeps any.
 */
export async function setSharedCredentialsUserId(db: Db, ref: { id: string; workspaceId: string }, userId: string | null): Promise<void> {
  return gated(db, async () => {
    bumpGeneration();
    const changed = await exec(
      db
        .update(mcpServers)
        .set({ sharedCredentialsUserId: userId })
        .where(and(eq(mcpServers.id, ref.id), eq(mcpServers.workspaceId, ref.workspaceId))),
    );
    if (changed) await deleteSharedCredentials(db, { serverId: ref.id, keepUserId: userId });
  });
}

/** Stop using (and forget) this user's shared tokens for the workspace's shared servers; returns the servers affected. */
export async function clearSharedCredentialsUser(db: Db, workspaceId: string, userId: string): Promise<string[]> {
  return gated(db, async () => {
    bumpGeneration();
    const ids = (
      await all(
        db
          .update(mcpServers)
          .set({ sharedCredentialsUserId: null })
          .where(and(eq(mcpServers.workspaceId, workspaceId), eq(mcpServers.sharedCredentialsUserId, userId)))
          .returning({ id: mcpServers.id }),
      )
    ).map((r) => r.id);
    for (const serverId of ids) await deleteSharedCredentials(db, { serverId, onlyUserId: userId });
    return ids;
  });
}

/**
 * Stop using this user's credentials for shared servers in every workspace (their account is
 * disabled or deleted); returns the servers affected. Run before deleting the user: the column
 * was added by ALTER TABLE, where SQLite keeps no ON DELETE action, so a reference would block it.
 */
export async function clearSharedCredentialsUserEverywhere(db: Db, userId: string): Promise<string[]> {
  return gated(db, async () => {
    bumpGeneration();
    const ids = (
      await all(
        db
          .update(mcpServers)
          .set({ sharedCredentialsUserId: null })
          .where(eq(mcpServers.sharedCredentialsUserId, userId))
          .returning({ id: mcpServers.id }),
      )
    ).map((r) => r.id);
    for (const serverId of ids) await deleteSharedCredentials(db, { serverId, onlyUserId: userId });
    return ids;
  });
}
