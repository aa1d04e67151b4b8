/**
 * The instance key for the database commands, from where the app takes it (`SWITCHBOARD_SECRET_KEY`,
 * else `<data dir>/secret.key`), but never generated: a command that made up a new key would only
 * report a mismatch, and leave a file behind that the next start would trust.
 */
import fs from "node:fs";
import path from "node:path";
import { keyFromText, SecretKeyError, wrongKeyMessage, type SecretKey } from "../../lib/crypto";
import { dataDir, secretKeySetting } from "../../lib/env";
import { DatabaseOpsError } from "./errors";

/** Where the key was found, for the commands' report (never the key itself). */
export interface FoundKey {
  key: SecretKey;
  source: string;
}

/** The instance key as the app would load it; a missing key file is an error, not a new key. */
export function existingInstanceKey(): FoundKey {
  const fromEnv = secretKeySetting();
  try {
    if (fromEnv?.trim()) return { key: keyFromText(fromEnv), source: "SWITCHBOARD_SECRET_KEY" };
    const file = path.join(dataDir(), "secret.key");
    if (!fs.existsSync(file)) {
      throw new DatabaseOpsError(
        `no instance key: set SWITCHBOARD_SECRET_KEY, or SWITCHBOARD_DATA_DIR to the data directory holding secret.key (looked in ${file})`,
      );
    }
    return { key: keyFromText(fs.readFileSync(file, "utf8")), source: file };
  } catch (error) {
    if (error instanceof SecretKeyError) throw new DatabaseOpsError(error.message);
    throw error;
  }
}

/** Throw the app's wrong-key message when a database records another key's fingerprint. */
export function assertSameKey(recorded: string | null, key: SecretKey, where: string): void {
  if (recorded !== null && recorded !== key.id) throw new DatabaseOpsError(`${where}: key mismatch. ${wrongKeyMessage(recorded, key.id)}`);
}
