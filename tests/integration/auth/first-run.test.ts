/** First run: the first account needs the one-time setup code from the data directory. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { users } from "@/db/schema";
import { registerUser } from "@/lib/auth/register";
import { consumeSetupCode, ensureSetupCode, setupCodePath } from "@/lib/auth/setup-code";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { all, exec } from "../../../db/exec";

const alice = { email: "alice@example.com", password: "a long enough password", name: "Alice" };
const mallory = { email: "mallory@example.com", password: "another long password", name: "Mallory" };
let dir: string;

beforeEach(() => {
  dir = useTempDataDir();
});
afterEach(() => removeTempDataDir(dir));

describe("first-run setup code", () => {
  it("is written to <data dir>/setup-code with mode 0600 on a fresh instance", async () => {
    const setup = await ensureSetupCode(getDb());
    expect(setup?.created).toBe(true);
    expect(fs.readFileSync(setupCodePath(dir), "utf8").trim()).toBe(setup?.code);
    expect(fs.statSync(setupCodePath(dir)).mode & 0o777).toBe(0o600);
    expect(await ensureSetupCode(getDb())).toEqual({ code: setup?.code, created: false });
  });

  it("refuses the first registration without the code, or with a wrong one", async () => {
    await ensureSetupCode(getDb());
    await expect(registerUser(getDb(), alice)).rejects.toMatchObject({ code: "auth.setup_code", status: 403, field: "setupCode" });
    await expect(registerUser(getDb(), { ...alice, setupCode: "AAAAA-BBBBB-CCCCC" })).rejects.toMatchObject({ code: "auth.setup_code" });
    expect(await all(getDb().select().from(users))).toEqual([]);
  });

  it("refuses the first registration when no code was ever made (nothing to guess against)", async () => {
    await expect(registerUser(getDb(), { ...alice, setupCode: "" })).rejects.toMatchObject({ code: "auth.setup_code" });
  });

  it("accepts the code (typed in lower case with spaces), makes the administrator, and then removes the code", async () => {
    const code = (await ensureSetupCode(getDb()))?.code ?? "";
    const user = await registerUser(getDb(), { ...alice, setupCode: ` ${code.toLowerCase().replaceAll("-", " ")} ` });
    expect(user?.isAdmin).toBe(true);
    expect(fs.existsSync(setupCodePath(dir))).toBe(false);
    // Later accounts need no code and are not administrators.
    const bob = await registerUser(getDb(), { email: "bob@example.com", password: "a long enough password", name: "Bob" });
    expect(bob?.isAdmin).toBe(false);
  });

  it("is single-use: two racing first registrations with the one code make exactly one administrator", async () => {
    process.env.SWITCHBOARD_REGISTRATION = "closed";
    try {
      const code = (await ensureSetupCode(getDb()))?.code;
      const results = await Promise.allSettled([
        registerUser(getDb(), { ...alice, setupCode: code }),
        registerUser(getDb(), { ...mallory, setupCode: code }),
      ]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const refused = results.find((r) => r.status === "rejected");
      // The loser finds an account already there, and registration closed.
      expect(refused?.status === "rejected" && refused.reason).toMatchObject({ code: "auth.registration_closed" });
      expect(await all(getDb().select().from(users))).toHaveLength(1);
      expect(await all(getDb().select().from(users).where(eq(users.isAdmin, true)))).toHaveLength(1);
    } finally {
      delete process.env.SWITCHBOARD_REGISTRATION;
    }
  });

  it("is single-use: once used, the same code does not open a fresh instance again", async () => {
    const code = (await ensureSetupCode(getDb()))?.code;
    const first = await registerUser(getDb(), { ...alice, setupCode: code });
    // The only account is deleted: the instance is fresh again, with a new code.
    await exec(
      getDb()
        .delete(users)
        .where(eq(users.id, first?.id ?? "")),
    );
    const next = await ensureSetupCode(getDb());
    expect(next?.code).not.toBe(code);
    await expect(registerUser(getDb(), { ...mallory, setupCode: code })).rejects.toMatchObject({ code: "auth.setup_code" });
  });

  it("is the same on every replica of one database and key, and used up on all of them at once", async () => {
    const other = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-replica-b-"));
    try {
      const here = await ensureSetupCode(getDb());
      const there = await ensureSetupCode(getDb(), other);
      expect(there).toEqual({ code: here?.code, created: true });
      expect(fs.readFileSync(setupCodePath(other), "utf8").trim()).toBe(here?.code);
      // Taken through one replica, the code opens nothing through the other.
      expect(await consumeSetupCode(getDb(), here?.code, other)).toBe(true);
      expect(await consumeSetupCode(getDb(), here?.code)).toBe(false);
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
    }
  });

  it("is removed at start-up once an account exists", async () => {
    const code = (await ensureSetupCode(getDb()))?.code;
    await registerUser(getDb(), { ...alice, setupCode: code });
    fs.writeFileSync(setupCodePath(dir), "LEFTOVER\n", { mode: 0o600 });
    expect(await ensureSetupCode(getDb())).toBeNull();
    expect(fs.existsSync(setupCodePath(dir))).toBe(false);
  });
});
