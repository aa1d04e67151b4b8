/**
 * Server definitions as the engine needs them (secrets decrypted, the caller's own per-member
 * values filled in), cached per (user, workspace, server) so a tool call or a chat turn does not
 * re-read and re-decrypt every server. An entry counts only until the next change to servers,
 * credentials, memberships, workspaces or users (db/generation.ts): an edit, a delete, a removed
 * member or a new credential is seen on the very next call. Keys start with the user id, and a
 * per-member definition is built from that user's own values, so no user is handed another's.
 */
import type { Db } from "../../db/client";
import { generationOf } from "../../db/generation";
import { listServersByWorkspace } from "../../db/queries/servers";
import { LookupCache } from "../lookup-cache";
import type { ServerDefinition } from "../mcp";
import { definitionFor } from "../servers/credential-mode";
import { getServer } from "../servers/lookup";

/** Who the definitions are for: the caller and the workspace of the request. */
export interface DefinitionCaller {
  id: string;
  workspaceId: string;
}

const single = new LookupCache<ServerDefinition>(20_000);
const lists = new LookupCache<ServerDefinition[]>(10_000);

/** One server of the caller's workspace as their engine definition, or a 404 (`server.not_found`). */
export async function cachedServerDefinition(db: Db, caller: DefinitionCaller, serverId: string): Promise<ServerDefinition> {
  return await single.readAsync(
    `${caller.id}\u0000${caller.workspaceId}\u0000${serverId}`,
    generationOf(db),
    async () => await definitionFor(db, caller.id, await getServer(db, caller, serverId)),
  );
}

/** Every server of the caller's workspace as their engine definitions (a fresh array each time). */
export async function cachedServerDefinitions(db: Db, caller: DefinitionCaller): Promise<ServerDefinition[]> {
  const stamp = generationOf(db);
  const list = await lists.readAsync(
    `${caller.id}\u0000${caller.workspaceId}`,
    stamp,
    async () =>
      await Promise.all(
        (await listServersByWorkspace(db, caller.workspaceId)).map(async (record) => await definitionFor(db, caller.id, record)),
      ),
  );
  return [...list];
}
