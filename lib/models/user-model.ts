/**
 * The language model a signed-in user's chat runs on, built server-side with the SSRF guard on
 * every provider request (a user-supplied base URL must not reach internal addresses).
 */
import type { LanguageModel } from "ai";
import type { Db } from "../../db/client";
import { guardedFetchFromEnv } from "../net";
import { cachedUserModelChoice } from "./choice-cache";
import { createLanguageModel, type ProviderFetch } from "./model";
import { effectiveModelConfig, type ModelResolution, type UserModelChoice } from "./model-config";

/** The workspace default a user's own choice falls back to: known, or still being read. */
type Fallback = UserModelChoice | null | Promise<UserModelChoice | null>;

/**
 * Which model the user would get, without building it (for the chat banner and Settings): their
 * own choice, else the workspace default (`fallback`), else the instance defaults. A fallback
 * still being read is awaited beside the user's own row (on Postgres one round trip, not two).
 */
export async function userModelResolution(db: Db, userId: string, fallback: Fallback = null): Promise<ModelResolution> {
  const [own, workspaceDefault] = await Promise.all([cachedUserModelChoice(db, userId), fallback]);
  return effectiveModelConfig(own, workspaceDefault);
}

/** The user's model, or the reason there is none. */
export async function userLanguageModel(
  db: Db,
  userId: string,
  fallback: Fallback = null,
): Promise<{ ok: true; model: LanguageModel; secrets: string[] } | { ok: false; reason: string }> {
  const resolution = await userModelResolution(db, userId, fallback);
  if (!resolution.ok) return resolution;
  const fetch = guardedFetchFromEnv() as unknown as ProviderFetch;
  // The key is redacted from any error text the provider produces (docs/security.md#redaction).
  return {
    ok: true,
    model: createLanguageModel(resolution.config, fetch),
    secrets: resolution.config.apiKey ? [resolution.config.apiKey] : [],
  };
}
