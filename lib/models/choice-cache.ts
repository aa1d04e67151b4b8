/**
 * The model choices a chat turn reads (the member's own, the workspace's default), cached under the
 * database's change stamp (db/generation.ts) like the other lookups (docs/performance.md): on
 * Postgres two round trips before every turn's first token. A saved choice moves the stamp, in this
 * process at once and on other replicas with the change notification, so the next turn reads it.
 * Keys are the user's or the workspace's id; the choice holds the decrypted key, server-side only.
 */
import type { Db } from "../../db/client";
import { generationOf } from "../../db/generation";
import { getUserModelChoice } from "../../db/queries/settings";
import { getWorkspaceModelChoice } from "../../db/queries/workspace-settings";
import type { UserModelChoice } from "../domain/model-choice";
import { LookupCache } from "../lookup-cache";

// Wrapped, so "no choice" (null, the common case for a member) is cached too.
const own = new LookupCache<{ choice: UserModelChoice | null }>(10_000);
const defaults = new LookupCache<{ choice: UserModelChoice | null }>(10_000);

/** The user's own model choice (key decrypted), or null; read once per change stamp. */
export async function cachedUserModelChoice(db: Db, userId: string): Promise<UserModelChoice | null> {
  return (await own.readAsync(userId, generationOf(db), async () => ({ choice: await getUserModelChoice(db, userId) }))).choice;
}

/** The workspace's default model choice (key decrypted), or null; read once per change stamp. */
export async function cachedWorkspaceModelChoice(db: Db, workspaceId: string): Promise<UserModelChoice | null> {
  return (await defaults.readAsync(workspaceId, generationOf(db), async () => ({ choice: await getWorkspaceModelChoice(db, workspaceId) })))
    .choice;
}
