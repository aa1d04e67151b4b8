/**
 * A workspace's default model (provider, model, base URL, encrypted key), set by owners/admins and
 * used by members who have not chosen their own. The key is only ever returned masked.
 */
import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "../../db/client";
import { openSecret, sealSecret } from "../../db/secrets";
import { recordAudit } from "../../db/queries/audit";
import { workspaceSettings } from "../../db/schema";
import type { UserModelChoice } from "./model-config";
import { maskKey } from "./model-config";
import type { modelSettingsSchema } from "./settings-service";
import { validateModelChoice } from "./settings-service";
import type { WorkspaceActor } from "../domain/workspace";
import { exec } from "../../db/exec";

/** The workspace's default model choice (key decrypted, server-side only), or null. */
export function workspaceModelChoice(db: Db, workspaceId: string): UserModelChoice | null {
  const row = db.select().from(workspaceSettings).where(eq(workspaceSettings.workspaceId, workspaceId)).get();
  if (!row?.provider || !row.model) return null;
  return {
    provider: row.provider,
    model: row.model,
    baseUrl: row.baseUrl,
    apiKey: row.apiKeyEnc ? openSecret(row.apiKeyEnc) : null,
  };
}

/** The default model as members see it (key masked). */
export function workspaceModelView(db: Db, workspaceId: string) {
  const choice = workspaceModelChoice(db, workspaceId);
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
  const values = {
    provider: input.provider,
    model: input.model,
    baseUrl: input.baseUrl,
    updatedBy: actor.id,
    updatedAt: new Date(),
    ...(apiKey === undefined ? {} : { apiKeyEnc: apiKey ? sealSecret(apiKey) : null }),
  };
  await exec(
    db
      .insert(workspaceSettings)
      .values({ workspaceId: actor.workspaceId, ...values })
      .onConflictDoUpdate({ target: workspaceSettings.workspaceId, set: values }),
  );
  await recordAudit(db, {
    actorId: actor.id,
    workspaceId: actor.workspaceId,
    action: "workspace.model",
    target: actor.workspaceId,
    detail: { provider: input.provider, model: input.model, keyChanged: apiKey !== undefined },
  });
  return workspaceModelView(db, actor.workspaceId);
}
