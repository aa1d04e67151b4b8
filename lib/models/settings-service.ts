/**
 * Model settings use cases: a masked view (the key never goes back in clear) and validated updates.
 */
import { z } from "zod";
import type { Db } from "../../db/client";
import { getUserModelChoice, saveUserModelChoice } from "../../db/queries/settings";
import { instanceModelSetting } from "../env";
import { AppError } from "../errors";
import { isSafeLinkUrl } from "../net/url-safety";
import { effectiveModelConfig, PROVIDERS, maskKey, type UserModelChoice } from "./model-config";

/** Body of `PUT /api/settings/model`; empty provider/model = use the instance defaults. */
export const modelSettingsSchema = z.object({
  provider: z
    .enum(PROVIDERS as [string, ...string[]])
    .nullable()
    .or(z.literal(""))
    .transform((v) => v || null),
  model: z
    .string()
    .max(200)
    .nullable()
    .transform((v) => v?.trim() || null),
  baseUrl: z
    .string()
    .max(2000)
    .nullable()
    .transform((v) => v?.trim() || null),
  /** Omitted: keep the stored key. Empty string or null: remove it. */
  apiKey: z.string().max(4000).nullable().optional(),
  clearApiKey: z.boolean().optional(),
});

/** The workspace a model view is read in: its name and its default model (null: none set). */
export interface ModelViewWorkspace {
  name: string;
  personal: boolean;
  choice: UserModelChoice | null;
}

/**
 * The settings as the browser sees them, in `workspace`: the user's own choice (key masked), the
 * workspace's and the instance's defaults, and the model that wins there (`effective`).
 */
export async function modelSettingsView(db: Db, userId: string, workspace: ModelViewWorkspace | null = null) {
  const choice = await getUserModelChoice(db, userId);
  const resolution = effectiveModelConfig(choice, workspace?.choice ?? null);
  return {
    provider: choice?.provider ?? null,
    model: choice?.model ?? null,
    baseUrl: choice?.baseUrl ?? null,
    apiKey: maskKey(choice?.apiKey),
    instance: {
      ...instanceModelSetting(),
    },
    workspace: workspace
      ? {
          name: workspace.personal ? "your personal workspace" : workspace.name,
          provider: workspace.choice?.provider ?? null,
          model: workspace.choice?.model ?? null,
        }
      : null,
    effective: resolution.ok
      ? { ok: true as const, provider: resolution.config.provider, model: resolution.config.model, source: resolution.config.source }
      : { ok: false as const, reason: resolution.reason },
  };
}

/** Check a model choice (user or workspace default); throws a 400 naming the field at fault. */
export function validateModelChoice(input: z.infer<typeof modelSettingsSchema>): void {
  if (input.baseUrl && !isSafeLinkUrl(input.baseUrl))
    throw new AppError("request.invalid", "The base URL must be an http or https URL.", "baseUrl");
  if (input.provider === "openai-compatible" && !input.baseUrl)
    throw new AppError("request.invalid", "An OpenAI-compatible provider needs a base URL.", "baseUrl");
  if (input.provider && !input.model) throw new AppError("request.invalid", "Name the model to use with this provider.", "model");
}

/** Validate and store an update; returns the new view in `workspace`. */
export async function updateModelSettings(
  db: Db,
  userId: string,
  input: z.infer<typeof modelSettingsSchema>,
  workspace: ModelViewWorkspace | null = null,
) {
  validateModelChoice(input);
  const apiKey = input.clearApiKey ? null : input.apiKey?.trim() ? input.apiKey.trim() : undefined;
  await saveUserModelChoice(db, userId, { provider: input.provider, model: input.model, baseUrl: input.baseUrl, apiKey });
  return await modelSettingsView(db, userId, workspace);
}
