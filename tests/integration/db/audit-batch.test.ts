import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { AUDIT_BATCH_MS, flushAudit, listAudit, recordAudit } from "@/db/queries/audit";
import { withTransaction } from "../../../db/transaction";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-audit-"));
const { db, sqlite } = openDatabase(path.join(dir, "audit.db"));
afterAll(() => {
  sqlite.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const rows = () => sqlite.prepare("SELECT action FROM audit_log ORDER BY id").pluck().all() as string[];
const batchWindow = () => new Promise((resolve) => setTimeout(resolve, AUDIT_BATCH_MS + 50));

describe("batched audit writes", () => {
  it("writes the entries of one batch window together", async () => {
    const before = rows().length;
    await recordAudit(db, { actorId: null, action: "test.one" });
    await recordAudit(db, { actorId: null, action: "test.two" });
    expect(rows().length).toBe(before); // waiting, not yet written
    await batchWindow();
    expect(rows().slice(before)).toEqual(["test.one", "test.two"]);
  });

  it("lets a read see every entry recorded before it, in the same turn, with all its fields", async () => {
    await recordAudit(db, {
      actorId: null,
      workspaceId: "w1",
      action: "test.read-after",
      target: "server:s1",
      detail: { tool: "echo", n: 2 },
    });
    const [entry] = (await listAudit(db, { action: "test.read-after" })).entries;
    expect(entry).toMatchObject({ action: "test.read-after", workspaceId: "w1", target: "server:s1", detail: { tool: "echo", n: 2 } });
    expect(Math.abs(entry.createdAt.getTime() - Date.now())).toBeLessThan(5000);
  });

  it("keeps an entry whose actor was deleted before the batch was written, without the actor", async () => {
    const before = rows().length;
    // No such user (deleted meanwhile): the row is kept as ON DELETE SET NULL would have left it.
    await recordAudit(db, { actorId: "deleted-user", action: "test.actor-gone" });
    await flushAudit(db);
    expect(rows().slice(before)).toEqual(["test.actor-gone"]);
    expect(sqlite.prepare("SELECT actor_id FROM audit_log ORDER BY id DESC LIMIT 1").pluck().get()).toBeNull();
  });

  it("writes the good entries of a batch when one row is refused", async () => {
    const before = rows().length;
    await recordAudit(db, { actorId: null, action: "test.good-1" });
    // No action: the NOT NULL constraint refuses this row.
    await recordAudit(db, { actorId: null, action: null as unknown as string });
    await recordAudit(db, { actorId: null, action: "test.good-2" });
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    try {
      await flushAudit(db);
    } finally {
      console.error = original;
    }
    expect(rows().slice(before)).toEqual(["test.good-1", "test.good-2"]);
    expect(String(errors[0])).toContain("could not be written");
  });

  it("writes at once inside a transaction, so a rollback takes the entry with it", async () => {
    const before = rows().length;
    await expect(
      withTransaction(db, async (tx) => {
        await recordAudit(tx as unknown as typeof tx, { actorId: null, action: "test.in-transaction" });
        expect(rows().length).toBe(before + 1);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(rows().length).toBe(before);
  });

  it("writes what waits when the process exits before the window ends", () => {
    const file = path.join(dir, "exit.db");
    const script = path.join(dir, "exit.ts");
    const root = process.cwd();
    fs.writeFileSync(
      script,
      `import { openDatabase } from ${JSON.stringify(path.join(root, "db/client.ts"))};
      import { recordAudit } from ${JSON.stringify(path.join(root, "db/queries/audit.ts"))};
      const { db } = openDatabase(${JSON.stringify(file)});
      recordAudit(db, { actorId: null, action: "test.before-exit" });
      process.exit(0);`,
    );
    const child = spawnSync(process.execPath, ["--import", "tsx", script], { encoding: "utf8" });
    expect(child.stderr).toBe("");
    expect(child.status).toBe(0);
    const other = openDatabase(file);
    try {
      expect(other.sqlite.prepare("SELECT action FROM audit_log").pluck().all()).toEqual(["test.before-exit"]);
    } finally {
      other.sqlite.close();
    }
  });
});
