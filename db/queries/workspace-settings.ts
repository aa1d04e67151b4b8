/**
 * A workspace's settings row: the default model (key encrypted at rest, docs/security.md#secrets-at-rest),
 * the tool-search settings and the catalog setting. lib/models/workspace-default.ts,
 * lib/agent/tool-search-settings.ts and lib/catalog/workspace-settings.ts give them meaning
 * (defaults, validation, audit); this module only reads and writes the row.
 */
import { eq } from "drizzle-orm";
import type { Db } from "../client";
import { exec, one } from "../exec";
import { bumpGeneration } from "../generation";
import { workspaceSettings } from "../schema";
import { openSecret, sealSecret } from "../secrets";
import type { UserModelChoice } from "../../lib/domain/model-choice";
import { gated } from "../transaction";

/** The stored tool-search settings; null fields (or no row) mean the default. */
export interface StoredToolSearch {
  threshold: number | null;
  maxTokens: number | null;
  alwaysLoaded: unknown;
}

/** The workspace's stored tool-search settings, or null when it has no settings row. */
export async function getToolSearchRow(db: Db, workspaceId: string): Promise<StoredToolSearch | null> {
  return gated(db, async () => {
    const row = await one(
      db
        .select({
          threshold: workspaceSettings.toolSearchThreshold,
          maxTokens: workspaceSettings.toolSearchMaxTokens,
          alwaysLoaded: workspaceSettings.alwaysLoadedTools,
        })
        .from(workspaceSettings)
        .where(eq(workspaceSettings.workspaceId, workspaceId)),
    );
    return row ?? null;
  });
}

/** Store the tool-search settings (creating the row when needed); the other settings keep their value. */
export async function saveToolSearchRow(
  db: Db,
  workspaceId: string,
  input: { threshold: number; maxTokens: number; alwaysLoaded: string[]; updatedBy: string },
): Promise<void> {
  return gated(db, async () => {
    bumpGeneration();
    const values = {
      toolSearchThreshold: input.threshold,
      toolSearchMaxTokens: input.maxTokens,
      alwaysLoadedTools: input.alwaysLoaded,
      updatedBy: input.updatedBy,
      updatedAt: new Date(),
    };
    await exec(
      db
        .insert(workspaceSettings)
        .values({ workspaceId, ...values })
        .onConflictDoUpdate({ target: workspaceSettings.workspaceId, set: values }),
    );
  });
}

/** The workspace's default model with its key decrypted (server-side only), or null when none is set. */
export async function getWorkspaceModelChoice(db: Db, workspaceId: string): Promise<UserModelChoice | null> {
  return gated(db, async () => {
    const row = await one(db.select().from(workspaceSettings).where(eq(workspaceSettings.workspaceId, workspaceId)));
    if (!row?.provider || !row.model) return null;
    return { provider: row.provider, model: row.model, baseUrl: row.baseUrl, apiKey: row.apiKeyEnc ? openSecret(row.apiKeyEnc) : null };
  });
}

/** What a default-model update may change; `apiKey: undefined` keeps the stored key, `null` removes it. */
export interface WorkspaceModelUpdate {
  provider: string | null;
  model: string | null;
  baseUrl: string | null;
  apiKey?: string | null;
  updatedBy: string;
}

/** Store the default model (creating the row when needed); the key is sealed here. */
export async function saveWorkspaceModel(db: Db, workspaceId: string, update: WorkspaceModelUpdate): Promise<void> {
  return gated(db, async () => {
    bumpGeneration();
    const values = {
      provider: update.provider,
      model: update.model,
      baseUrl: update.baseUrl,
      updatedBy: update.updatedBy,
      updatedAt: new Date(),
      ...(update.apiKey === undefined ? {} : { apiKeyEnc: update.apiKey ? sealSecret(update.apiKey) : null }),
    };
    await exec(
      db
        .insert(workspaceSettings)
        .values({ workspaceId, ...values })
        .onConflictDoUpdate({ target: workspaceSettings.workspaceId, set: values }),
    );
  });
}

/** Whether the workspace lets its members add remote catalog entries (false when never set). */
export async function getCatalogMembersAdd(db: Db, workspaceId: string): Promise<boolean> {
  return gated(db, async () => {
    const row = await one(
      db.select({ on: workspaceSettings.catalogMembersAdd }).from(workspaceSettings).where(eq(workspaceSettings.workspaceId, workspaceId)),
    );
    return row?.on === true;
  });
}

/** Store the catalog setting (creating the row when needed); the other settings keep their value. */
export async function saveCatalogMembersAdd(db: Db, workspaceId: string, on: boolean, updatedBy: string): Promise<void> {
  return gated(db, async () => {
    bumpGeneration();
    const values = { catalogMembersAdd: on, updatedBy, updatedAt: new Date() };
    await exec(
      db
        .insert(workspaceSettings)
        .values({ workspaceId, ...values })
        .onConflictDoUpdate({ target: workspaceSettings.workspaceId, set: values }),
    );
  });
}
