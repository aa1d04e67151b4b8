/**
 * Server config use cases behind the API: validation, workspace roles, the admin-only rule for
 * stdio servers, duplicate names, masked secrets, and the audit trail.
 */
import type { Db } from "../../db/client";
import {
  createServer,
  deleteServer,
  listServersByWorkspace,
  readServerSecrets,
  serverNameTaken,
  updateServer,
  type ServerRecord,
} from "../../db/queries/servers";
import { getMembershipRole } from "../../db/queries/workspaces";
import { getUserById } from "../../db/queries/users";
import { recordAudit } from "../../db/queries/audit";
import { environment, sandboxMode } from "../env";
import { AppError } from "../errors";
import { transportOf, type ServerConfig } from "../mcp/config";
import type { NewServerInput, ServerInput } from "./input";
import { getServer } from "./lookup";
import { restoreMaskedSecrets, secretOrigin } from "./secrets";
import { recordServerChange } from "./change-effects";
import { credentialModeOf, sharedAccountUserId, splitKey } from "./credential-mode";
import { releaseServer } from "./release";
import { assertServerRoom } from "../quotas";
import { describeLaunch, sandboxLimitsFromEnv } from "../mcp/sandbox";
import type { AccessEffects } from "../domain/access-effects";
import { splitSecrets, type ServerSecrets } from "../../db/server-secrets";
import { withTransaction } from "../../db/transaction";

/** The caller of a server use case: who, in which workspace. */
export type Actor = { id: string; isAdmin: boolean; workspaceId: string };

/** The server list of the workspace for the caller: masked, with whose account shared servers use. */
export async function listServers(db: Db, actor: Actor) {
  return await Promise.all(
    (await listServersByWorkspace(db, actor.workspaceId)).map(async (record) =>
      serverView(record, { sharedBy: await sharedByName(db, record) }),
    ),
  );
}

/** The name of the member whose account a shared server uses, or null. */
export async function sharedByName(db: Db, record: ServerRecord): Promise<string | null> {
  const userId = sharedAccountUserId(record);
  return userId ? ((await getUserById(db, userId))?.name ?? null) : null;
}

/**
 * The JSON shape servers are returned in: masked config, never a secret. stdio servers carry the
 * exact launch (command, args, env names, network, shared paths) so it is seen before it runs.
 */
export function serverView(record: ServerRecord, extra: { sharedBy?: string | null } = {}) {
  return {
    launch:
      record.transport === "stdio"
        ? describeLaunch(record.config, { mode: sandboxMode(), limits: sandboxLimitsFromEnv(environment()) })
        : null,
    id: record.id,
    name: record.name,
    transport: record.transport,
    config: record.config,
    credentials: credentialModeOf(record.config),
    // The server card names whose account a shared server uses; never the credentials themselves.
    ...(credentialModeOf(record.config) === "shared" ? { sharedBy: extra.sharedBy ?? null } : {}),
    memberKeys: record.memberKeys,
    // The catalog entry and version it came from (docs/catalog.md#updates), or null.
    catalog: record.catalogEntryId ? { entryId: record.catalogEntryId, version: record.catalogVersion } : null,
    createdBy: record.createdBy,
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
  };
}

// `membersMay`: a plain member may too (a remote catalog entry where the workspace allows it); a
// non-member never.
async function assertCanManage(db: Db, actor: Actor, membersMay = false): Promise<void> {
  const role = await getMembershipRole(db, actor.workspaceId, actor.id);
  if (role === "owner" || role === "admin" || (membersMay && role === "member")) return;
  throw new AppError("auth.forbidden", "Only workspace owners and admins can change servers.");
}

// stdio servers run programs on the host: only instance administrators may define them (docs/security.md#stdio-sandbox).
function assertMayUseTransport(actor: Actor, config: ServerConfig): void {
  if (transportOf(config) === "stdio" && !actor.isAdmin) {
    throw new AppError("auth.forbidden", "Only instance administrators can add or change stdio (command) servers.", "command");
  }
}

// Per-member keys name header/env keys of the config itself: `headers.<name>` or `env.<name>`.
function checkMemberKeys(value: string[] | undefined, config: ServerConfig): string[] | undefined {
  if (value === undefined) return undefined;
  for (const key of value) {
    const [section, name] = splitKey(key);
    if ((section !== "headers" && section !== "env") || config[section]?.[name] === undefined)
      throw new AppError("request.invalid", `memberKeys: \`${key}\` is not a header or env key of this server`, "memberKeys");
  }
  return [...new Set(value)];
}

/** One server of the actor's workspace, or a 404 (re-exported: the one lookup lives in lookup.ts). */
export { getServer } from "./lookup";

/** Where a new server comes from: a catalog entry's version, and whether plain members may add it. */
export interface AddOptions {
  catalog?: { entryId: string; version: string };
  /** Set only for a remote catalog entry in a workspace that lets members add those (docs/catalog.md). */
  membersMay?: boolean;
}

/** Create a server from `{name, config}` parsed at the boundary (`newServerSchema`, lib/servers/input.ts). */
export async function addServer(db: Db, actor: Actor, input: NewServerInput, options: AddOptions = {}): Promise<ServerRecord> {
  const { name, config } = input;
  const memberKeys = checkMemberKeys(input.memberKeys, config);
  await assertCanManage(db, actor, options.membersMay === true && transportOf(config) === "http");
  assertMayUseTransport(actor, config);
  // The room and name checks and the insert in one transaction: two adds at once must not both pass
  // them (the lookups are async, so another request can run between check and insert).
  const record = await withTransaction(db, async (tx) => {
    assertServerRoom((await listServersByWorkspace(tx, actor.workspaceId)).length);
    if (await serverNameTaken(tx, actor.workspaceId, name))
      throw new AppError("server.name_taken", `A server named "${name}" already exists in this workspace.`, "name");
    return await createServer(tx, {
      workspaceId: actor.workspaceId,
      name,
      config,
      createdBy: actor.id,
      memberKeys,
      catalog: options.catalog,
    });
  });
  await recordAudit(db, {
    actorId: actor.id,
    workspaceId: actor.workspaceId,
    action: "server.create",
    target: record.id,
    detail: {
      name,
      transport: record.transport,
      credentials: credentialModeOf(config),
      ...(options.catalog ? { catalog: options.catalog } : {}),
    },
  });
  return record;
}

/**
 * Change a server: `{name?, config?}`; secrets sent back masked keep their stored value, unless the
 * edit moves the server to another origin (scheme, host, port): then they must be entered again.
 * `catalogVersion`: the edit applies that catalog version (remembered, audited as `server.catalog_update`).
 */
export async function changeServer(db: Db, actor: Actor, id: string, input: ServerInput, catalogVersion?: string): Promise<ServerRecord> {
  const existing = await getServer(db, actor, id);
  const name = input.name ?? existing.name;
  let config = existing.config;
  const stored = await readServerSecrets(db, existing);
  if (input.config !== undefined) {
    const parsed = input.config;
    const restored = restoreMaskedSecrets(parsed, stored, secretOrigin(parsed) === secretOrigin(existing.config));
    if (restored.moved)
      throw new AppError(
        "server.secret_moved",
        "The address changed: enter the API key again for the new address (a stored secret never follows a server to another origin).",
        `config.${restored.moved}`,
      );
    if (restored.missing)
      throw new AppError(
        "server.invalid_config",
        "a masked value was sent for a secret that is not stored; enter the value",
        `config.${restored.missing}`,
      );
    config = restored.config;
  } else {
    config = restoreMaskedSecrets(existing.config, stored).config;
  }
  const memberKeys = checkMemberKeys(input.memberKeys, config);
  await assertCanManage(db, actor);
  // Changing an existing stdio server, or turning a server into one, both need an administrator.
  assertMayUseTransport(actor, existing.config);
  assertMayUseTransport(actor, config);
  if (await serverNameTaken(db, actor.workspaceId, name, id))
    throw new AppError("server.name_taken", `A server named "${name}" already exists in this workspace.`, "name");
  const record = await updateServer(db, existing, { name, config, memberKeys, catalogVersion });
  if (!record) throw new AppError("server.not_found", "No such server.");
  await recordServerChange(db, actor, existing, record, config);
  if (catalogVersion)
    await recordAudit(db, {
      actorId: actor.id,
      workspaceId: actor.workspaceId,
      action: "server.catalog_update",
      target: id,
      detail: { name, from: existing.catalogVersion, to: catalogVersion },
    });
  // Every user's connection to the old config ends now, not at idle eviction (docs/limits.md).
  void releaseServer(id);
  return record;
}

/**
 * What an edit would change that needs a recent sign-in (lib/auth/reauth.ts): the origin, the
 * credential mode, or a secret value (header, env, OAuth client secret, secret URL); null for
 * anything else (name, args, a non-secret field). Decided before anything is stored.
 */
export async function sensitiveServerChange(
  db: Db,
  actor: Actor,
  id: string,
  input: ServerInput,
): Promise<"origin" | "credentials" | "secrets" | null> {
  if (input.config === undefined) return null;
  const existing = await getServer(db, actor, id);
  const stored = await readServerSecrets(db, existing);
  if (secretOrigin(input.config) !== secretOrigin(existing.config)) return "origin";
  if (credentialModeOf(input.config) !== credentialModeOf(existing.config)) return "credentials";
  const restored = restoreMaskedSecrets(input.config, stored);
  // A mask with nothing behind it fails later with its own error; it changes no secret.
  if (restored.missing) return null;
  return sameSecrets(splitSecrets(restored.config).secrets, stored) ? null : "secrets";
}

// Compared as sorted entries: the order a form sends its headers in is no change.
function sameSecrets(a: ServerSecrets, b: ServerSecrets): boolean {
  const canonical = (s: ServerSecrets) =>
    JSON.stringify([
      s.url ?? null,
      Object.entries(s.headers ?? {}).sort(),
      Object.entries(s.env ?? {}).sort(),
      s.oauthClientSecret ?? null,
    ]);
  return canonical(a) === canonical(b);
}

/** Delete a server. */
export async function removeServer(db: Db, actor: Actor, id: string): Promise<void> {
  const existing = await getServer(db, actor, id);
  await assertCanManage(db, actor);
  if (existing.transport === "stdio" && !actor.isAdmin)
    throw new AppError("auth.forbidden", "Only instance administrators can remove stdio servers.");
  await deleteServer(db, existing);
  await recordAudit(db, {
    actorId: actor.id,
    workspaceId: actor.workspaceId,
    action: "server.delete",
    target: id,
    detail: { name: existing.name },
  });
  void releaseServer(id);
}

/** One server's view, or a 404. */
export async function serverViewById(db: Db, actor: Actor, id: string) {
  const record = await getServer(db, actor, id);
  return serverView(record, { sharedBy: await sharedByName(db, record) });
}

/** `addServer`, answered as its view. */
export async function addServerView(db: Db, actor: Actor, input: NewServerInput, options: AddOptions = {}) {
  return serverView(await addServer(db, actor, input, options));
}

/** `changeServer`, answered as its view (`catalogVersion`: the catalog version the change applies). */
export async function changeServerView(db: Db, actor: Actor, id: string, input: ServerInput, catalogVersion?: string) {
  const record = await changeServer(db, actor, id, input, catalogVersion);
  return serverView(record, { sharedBy: await sharedByName(db, record) });
}

/** Delete a server and close every member's live connection to it. */
export async function removeServerNow(db: Db, actor: Actor, id: string, effects: AccessEffects): Promise<void> {
  await removeServer(db, actor, id);
  await effects.closeConnections(null, [id]);
}
