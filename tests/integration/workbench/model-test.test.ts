/**
 * "Test connection" for the model settings (lib/models/model-test.ts) over a real SQLite file and
 * the real provider path: a loopback base URL is refused by the SSRF guard with a message naming
 * SWITCHBOARD_ALLOWED_HOSTS, and no model configured says so.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { saveUserModelChoice } from "@/db/queries/settings";
import { createUserWithWorkspace } from "@/db/queries/users";
import { testUserModel } from "@/lib/models/model-test";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";

let dir = "";
beforeAll(() => {
  dir = useTempDataDir();
});
afterAll(() => removeTempDataDir(dir));

async function user() {
  return (await createUserWithWorkspace(getDb(), { email: `m-${Math.random()}@example.com`, name: "M", passwordHash: "x" }))!;
}

describe("testUserModel", () => {
  it("names SWITCHBOARD_ALLOWED_HOSTS when the base URL is a loopback address", async () => {
    const u = await user();
    await saveUserModelChoice(getDb(), u.id, { provider: "openai-compatible", model: "local", baseUrl: "http://127.0.0.1:9/v1" });
    const result = await testUserModel(getDb(), u.id);
    expect(result.ok).toBe(false);
    expect(result.message).toContain("127.0.0.1 is loopback");
    expect(result.message).toContain("SWITCHBOARD_ALLOWED_HOSTS");
  });

  it("says when no model is configured", async () => {
    const saved = { ...process.env };
    for (const key of ["SWITCHBOARD_LLM_PROVIDER", "SWITCHBOARD_LLM_MODEL", "OPENAI_API_KEY", "ANTHROPIC_API_KEY"]) delete process.env[key];
    try {
      const result = await testUserModel(getDb(), (await user()).id);
      expect(result.ok).toBe(false);
      expect(result.message.length).toBeGreaterThan(0);
    } finally {
      process.env = saved;
    }
  });
});
