/**
 * A workspace's default model (provider, model, base URL, encrypted key), set by owners/admins and
 * used by members who have not chosen their own. The key is only ever returned masked.
 */
import type { z } from "zod";
import type { Db } from "../../db/client";
import { recordAudit } from "../../db/queries/audit";
import { saveWorkspaceModel } from "../../db/queries/workspace-settings";
import { cachedWorkspaceModelChoice } from "./choice-cache";
import type { UserModelChoice } from "./model-config";
import { maskKey } from "./model-config";
import type { modelSettingsSchema } from "./settings-service";
import { validateModelChoice } from "./settings-service";
import type { WorkspaceActor } from "../domain/workspace";

/** The workspace's default model choice (key decrypted, server-side only), or null. */
export async function workspaceModelChoice(db: Db, workspaceId: string): Promise<UserModelChoice | null> {
  return await cachedWorkspaceModelChoice(db, workspaceId);
}

/** The default model as members see it (key masked). */
export async function workspaceModelView(db: Db, workspaceId: string) {
  const choice = await workspaceModelChoice(db, workspaceId);
  return {
    provider: choice?.provider ?? null,
    model: choice?.model ?? null,
    baseUrl: choice?.baseUrl ?? null,
    apiKey: maskKey(choice?.apiKey),
  };
}

/** Set or clear the default model (owners/admins; the caller's role was checked by the route). */
export async function setWorkspaceModel(db: Db, actor: WorkspaceActor, input: z.infer<typeof modelSettingsSchema>) {
  validateModelChoice(input);
  const apiKey = input.clearApiKey ? null : input.apiKey?.trim() ? input.apiKey.trim() : undefined;
  await saveWorkspaceModel(db, actor.workspaceId, {
    provider: input.provider,
    model: input.model,
    baseUrl: input.baseUrl,
    apiKey,
    updatedBy: actor.id,
  });
  await recordAudit(db, {
    actorId: actor.id,
    workspaceId: actor.workspaceId,
    action: "workspace.model",
    target: actor.workspaceId,
    detail: { provider: input.provider, model: input.model, keyChanged: apiKey !== undefined },
  });
  return await workspaceModelView(db, actor.workspaceId);
}
