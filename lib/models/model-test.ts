/**
 * "Test connection" on the model settings: one tiny request to the model the user would chat
 * with, through the SSRF guard like every chat request; the outcome in plain words, and a base
 * URL the guard refuses names the setting an administrator changes (docs/workbench.md#test-connection).
 */
import { generateText } from "ai";
import type { Db } from "../../db/client";
import { blockedCause, blockedMessage } from "../net/blocked-message";
import { redact } from "../redact";
import { userLanguageModel, userModelResolution } from "./user-model";
import type { UserModelChoice } from "./model-config";

/** How long the test waits for the provider. */
const TEST_TIMEOUT_MS = 20_000;

/** Send one short request to the user's effective model; never throws for provider failures. */
export async function testUserModel(
  db: Db,
  userId: string,
  fallback: UserModelChoice | null = null,
): Promise<{ ok: boolean; message: string }> {
  const built = await userLanguageModel(db, userId, fallback);
  if (!built.ok) return { ok: false, message: built.reason };
  const resolution = await userModelResolution(db, userId, fallback);
  const label = resolution.ok ? `${resolution.config.provider} ${resolution.config.model}` : "the model";
  try {
    await generateText({
      model: built.model,
      prompt: "Reply with the word ok.",
      maxOutputTokens: 5,
      abortSignal: AbortSignal.timeout(TEST_TIMEOUT_MS),
      maxRetries: 0,
    });
    return { ok: true, message: `${label} answered.` };
  } catch (error) {
    const blocked = blockedCause(error);
    if (blocked) return { ok: false, message: blockedMessage(blocked, "The base URL") };
    return {
      ok: false,
      message: `${label} did not answer: ${redact(error instanceof Error ? error.message : String(error), built.secrets)}`,
    };
  }
}
