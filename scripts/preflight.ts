// Prepares the data directory before the server starts: generated secrets, migrations and the
// key check. Exits 1 with one clear message when the key does not match the data.
import path from "node:path";
import { getDb, closeDb } from "../db/client";
import { SecretKeyError, readOrCreateSecretFile } from "../lib/crypto";
import { dataDir } from "../lib/env";

try {
  if (!process.env.NEXTAUTH_SECRET) readOrCreateSecretFile(path.join(dataDir(), "nextauth.secret"));
  getDb();
  closeDb();
  console.log(`switchboard: data directory ${dataDir()} ready`);
} catch (error) {
  if (error instanceof SecretKeyError) {
    console.error(`switchboard: ${error.message}`);
    process.exit(1);
  }
  throw error;
}
