/** A fresh data directory (keys, and the SQLite database or on a Postgres run a new database) per test file, removed afterwards. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeDb } from "../../db/client";
import { resetInstanceKey } from "../../db/key-check";
import { newTestDatabase } from "./test-database";

/**
 * Point SWITCHBOARD_DATA_DIR at a new temp directory and return it. On a Postgres run
 * (`SWITCHBOARD_TEST_DB=postgres`), DATABASE_URL also points at a new, migrated database.
 */
export function useTempDataDir(): string {
  // SQLite closes at once; a Postgres pool ends in the background (the next database is another one).
  void closeDb();
  resetInstanceKey();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-data-"));
  process.env.SWITCHBOARD_DATA_DIR = dir;
  const url = newTestDatabase();
  if (url) process.env.DATABASE_URL = url;
  return dir;
}

/** Close the database (a Postgres pool ends in the background) and delete the directory. */
export function removeTempDataDir(dir: string): void {
  void closeDb();
  resetInstanceKey();
  fs.rmSync(dir, { recursive: true, force: true });
}
