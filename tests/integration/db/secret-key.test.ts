import { spawnSync } from "node:child_process";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "@/db/client";
import { resetInstanceKey } from "@/db/key-check";
import { SecretKeyError } from "@/lib/crypto";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";

const dir = useTempDataDir();
afterAll(() => {
  delete process.env.SWITCHBOARD_SECRET_KEY;
  removeTempDataDir(dir);
});

describe("instance key check", () => {
  it("binds the data to the first key and refuses another with a message naming the fix", async () => {
    process.env.SWITCHBOARD_SECRET_KEY = Buffer.alloc(32, 1).toString("base64");
    getDb();
    await closeDb();
    resetInstanceKey();
    process.env.SWITCHBOARD_SECRET_KEY = Buffer.alloc(32, 2).toString("base64");
    expect(() => getDb()).toThrow(SecretKeyError);
    expect(() => getDb()).toThrow(/Restore the original SWITCHBOARD_SECRET_KEY/);
  });

  it("makes the start-up preflight exit once with that message instead of crash-looping", () => {
    const result = spawnSync(process.execPath, [path.join("node_modules", "tsx", "dist", "cli.mjs"), "scripts/preflight.ts"], {
      env: { ...process.env, SWITCHBOARD_DATA_DIR: dir, SWITCHBOARD_SECRET_KEY: Buffer.alloc(32, 3).toString("base64") },
      encoding: "utf8",
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("Restore the original SWITCHBOARD_SECRET_KEY");
    expect(result.stderr).not.toMatch(/at .*\.ts:\d+/); // one clear line, no stack trace
  });
});
