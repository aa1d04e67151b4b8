/** A fresh data directory (database, keys) per test file, removed afterwards. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeDb } from "../../db/client";
import { resetInstanceKey } from "../../db/key-check";

/** Point SWITCHBOARD_DATA_DIR at a new temp directory and return it. */
export function useTempDataDir(): string {
  void closeDb();
  resetInstanceKey();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-data-"));
  process.env.SWITCHBOARD_DATA_DIR = dir;
  return dir;
}

/** Close the database and delete the directory. */
export function removeTempDataDir(dir: string): void {
  void closeDb();
  resetInstanceKey();
  fs.rmSync(dir, { recursive: true, force: true });
}
