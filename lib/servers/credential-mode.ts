/**
 * Whose credentials a call to a workspace server uses. `per_member` (the default): the caller's
 * own OAuth tokens and their own values for per-member header/env keys. `shared`: the tokens an
 * owner/admin obtained with "Connect for everyone", kept apart from their own; members never see them.
 */
import type { Db } from "../../db/client";
import { getServerByIdUnscoped, toServerDefinition, type ServerRecord } from "../../db/queries/servers";
import { isSendable, readMemberValues } from "./member-value-store";
import { secretOrigin } from "./secrets";
import type { ServerConfig, ServerDefinition } from "../mcp/config";

/** A server's credential mode. */
export type CredentialMode = "per_member" | "shared";

/** The mode of a config (absent means `per_member`). */
export function credentialModeOf(config: ServerConfig): CredentialMode {
  return config.credentials === "shared" ? "shared" : "per_member";
}

/** Whose stored OAuth credentials a call uses: a person, and whether their tokens for everyone or their own. */
export interface CredentialAccount {
  userId: string;
  forEveryone: boolean;
}

/**
 * The account a `shared` server's calls use: the owner/admin who did its Connect for everyone, else
 * nobody (null). Never a fallback to anyone's personal tokens, the creator's included.
 */
export function sharedAccountUserId(record: ServerRecord): string | null {
  return record.sharedCredentialsUserId;
}

/**
 * The credentials a call by `callerId` uses: the caller's own for `per_member`; for `shared`, the
 * shared slot of whoever connected it for everyone. While nobody has, the caller's shared slot,
 * which is empty (only the account in use keeps one, db/queries/servers.ts): the server then
 * waits in "needs authorization" until an owner or admin connects it for everyone.
 */
export async function credentialAccountFor(db: Db, callerId: string, server: ServerDefinition): Promise<CredentialAccount> {
  if (credentialModeOf(server.config) !== "shared") return { userId: callerId, forEveryone: false };
  // By id alone: the caller's access was checked before the engine got the definition.
  const record = await getServerByIdUnscoped(db, server.id);
  return { userId: (record && sharedAccountUserId(record)) ?? callerId, forEveryone: true };
}

/**
 * The engine definition of a server for one caller: secrets decrypted and, on a `per_member`
 * server, each per-member header/env key set to the caller's own value, left out while unset or
 * held (entered for another origin than the server's current one).
 */
export async function definitionFor(db: Db, userId: string, record: ServerRecord): Promise<ServerDefinition> {
  const definition = await toServerDefinition(db, record);
  if (!record.memberKeys.length || credentialModeOf(record.config) === "shared") return definition;
  const origin = secretOrigin(definition.config);
  const own = Object.fromEntries(
    Object.entries(await readMemberValues(db, userId, record.id))
      .filter(([, entry]) => isSendable(entry, origin))
      .map(([key, entry]) => [key, entry.value]),
  );
  const config: ServerConfig = { ...definition.config };
  for (const section of ["headers", "env"] as const) {
    const map = { ...(config[section] ?? {}) };
    for (const key of record.memberKeys) {
      const [where, name] = splitKey(key);
      if (where !== section) continue;
      if (own[key] === undefined) delete map[name];
      else map[name] = own[key];
    }
    if (config[section]) config[section] = map;
  }
  return { ...definition, config };
}

/** `headers.X-Api-Key` → ["headers", "X-Api-Key"]. */
export function splitKey(key: string): [string, string] {
  const dot = key.indexOf(".");
  return [key.slice(0, dot), key.slice(dot + 1)];
}
