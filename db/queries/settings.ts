/**
 * Per-user model settings. The API key is encrypted at rest (docs/security.md#secrets-at-rest) and only ever leaves
 * this module decrypted for the agent, or masked for the UI.
 */
import { eq } from "drizzle-orm";
import type { Db } from "../client";
import { openSecret, sealSecret } from "../secrets";
import { userSettings } from "../schema";
import type { UserModelChoice } from "../../lib/domain/model-choice";
import { gated } from "../transaction";
import { exec, one } from "../exec";
import { bumpGeneration } from "../generation";

/** The stored choice with the key decrypted (server-side use only), or null. */
export async function getUserModelChoice(db: Db, userId: string): Promise<UserModelChoice | null> {
  return gated(db, async () => {
    const row = await one(db.select().from(userSettings).where(eq(userSettings.userId, userId)));
    if (!row) return null;
    return {
      provider: row.provider,
      model: row.model,
      baseUrl: row.baseUrl,
      apiKey: row.apiKeyEnc ? openSecret(row.apiKeyEnc) : null,
    };
  });
}

/** What a settings update may change; `apiKey: undefined` keeps the stored key, `null` removes it. */
export interface ModelChoiceUpdate {
  provider: string | null;
  model: string | null;
  baseUrl: string | null;
  apiKey?: string | null;
}

/** Create or replace the user's model settings. */
export async function saveUserModelChoice(db: Db, userId: string, update: ModelChoiceUpdate): Promise<void> {
  return gated(db, async () => {
    bumpGeneration();
    const values = {
      provider: update.provider,
      model: update.model,
      baseUrl: update.baseUrl,
      updatedAt: new Date(),
      ...(update.apiKey === undefined ? {} : { apiKeyEnc: update.apiKey ? sealSecret(update.apiKey) : null }),
    };
    await exec(
      db
        .insert(userSettings)
        .values({ userId, ...values })
        .onConflictDoUpdate({ target: userSettings.userId, set: values }),
    );
  });
}
