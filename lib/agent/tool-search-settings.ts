/**
 * A workspace's tool-search settings (docs/tool-search.md): the threshold that turns search on, the
 * token budget, and the tools always given to the model. Members read them; owners/admins change them.
 */
import { z } from "zod";
import type { Db } from "../../db/client";
import { generationOf } from "../../db/generation";
import { recordAudit } from "../../db/queries/audit";
import { getToolSearchRow, saveToolSearchRow } from "../../db/queries/workspace-settings";
import { DEFAULT_TOOL_SEARCH, PROVIDER_TOOL_LIMIT, type ToolSearchSettings } from "./tool-search";
import type { WorkspaceActor } from "../domain/workspace";
import { LookupCache } from "../lookup-cache";

// Read before every chat turn: cached under the change stamp (a saved setting moves it; docs/performance.md).
const settingsCache = new LookupCache<ToolSearchSettings>(10_000);

/** Body of `PUT /api/workspaces/:id/tool-search`; 0 turns search off (below the provider limit). */
export const toolSearchSettingsSchema = z.object({
  threshold: z.number().int().min(0).max(PROVIDER_TOOL_LIMIT),
  maxTokens: z.number().int().min(1000).max(1_000_000),
  // Registered names (`mcp_<server>_<tool>`): what the model sees, so what a person pins.
  alwaysLoaded: z
    .array(z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, "a tool name like mcp_server_tool"))
    .max(PROVIDER_TOOL_LIMIT - 1)
    .transform((names) => [...new Set(names)]),
});

/** The workspace's settings, with the default for each unset field (defaults for no workspace). */
export async function getToolSearchSettings(db: Db, workspaceId: string | undefined | null): Promise<ToolSearchSettings> {
  if (!workspaceId) return DEFAULT_TOOL_SEARCH;
  const settings = await settingsCache.readAsync(workspaceId, generationOf(db), async () => {
    const row = await getToolSearchRow(db, workspaceId);
    return {
      threshold: row?.threshold ?? DEFAULT_TOOL_SEARCH.threshold,
      maxTokens: row?.maxTokens ?? DEFAULT_TOOL_SEARCH.maxTokens,
      alwaysLoaded: Array.isArray(row?.alwaysLoaded) ? row.alwaysLoaded : DEFAULT_TOOL_SEARCH.alwaysLoaded,
    };
  });
  // A copy: the cached entry is shared by every turn of the workspace.
  return { ...settings, alwaysLoaded: [...settings.alwaysLoaded] };
}

/** Save the settings (the route checked the owner/admin role) and audit the change. */
export async function setToolSearchSettings(
  db: Db,
  actor: WorkspaceActor,
  input: z.infer<typeof toolSearchSettingsSchema>,
): Promise<ToolSearchSettings> {
  await saveToolSearchRow(db, actor.workspaceId, {
    threshold: input.threshold,
    maxTokens: input.maxTokens,
    alwaysLoaded: input.alwaysLoaded,
    updatedBy: actor.id,
  });
  await recordAudit(db, {
    actorId: actor.id,
    workspaceId: actor.workspaceId,
    action: "workspace.tool_search",
    target: actor.workspaceId,
    detail: { threshold: input.threshold, maxTokens: input.maxTokens, alwaysLoaded: input.alwaysLoaded.length },
  });
  return await getToolSearchSettings(db, actor.workspaceId);
}
