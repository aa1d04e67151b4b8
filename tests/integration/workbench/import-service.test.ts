/**
 * Import and export against a real SQLite file (lib/servers/import-service.ts): the preview saves
 * nothing and masks secrets, a member cannot bring in stdio entries, an instance administrator
 * sees the exact launch and can, confirmed entries are created with their secrets, and an export
 * carries placeholders instead of secret values.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { listServersByWorkspace, readServerSecrets } from "@/db/queries/servers";
import { createUserWithWorkspace } from "@/db/queries/users";
import { getPersonalWorkspaceId } from "@/db/queries/workspaces";
import { AppError } from "@/lib/errors";
import { confirmImport, exportWorkspaceServers, previewImport } from "@/lib/servers/import-service";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";

let dir = "";
beforeAll(() => {
  dir = useTempDataDir();
});
afterAll(() => removeTempDataDir(dir));

async function actor(isAdmin: boolean) {
  const db = getDb();
  const user = (await createUserWithWorkspace(db, { email: `i-${Math.random()}@example.com`, name: "I", passwordHash: "x" }))!;
  return { id: user.id, isAdmin, workspaceId: (await getPersonalWorkspaceId(db, user.id))! };
}

const text = JSON.stringify({
  mcpServers: {
    remote: { url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer top-secret" } },
    local: { command: "node", args: ["server.js", "--port", "1"], env: { KEY: "env-secret" } },
  },
});

describe("import", () => {
  it("previews without saving, masks secrets, and refuses stdio to a member", async () => {
    const member = await actor(false);
    const preview = await previewImport(getDb(), member, { text });
    expect(JSON.stringify(preview)).not.toMatch(/top-secret|env-secret/);
    expect(preview.servers.map((s) => [s.name, s.valid, s.needsConsent])).toEqual([
      ["remote", true, false],
      ["local", false, true],
    ]);
    expect(preview.servers[1].error).toMatch(/only instance administrators/);
    expect(await listServersByWorkspace(getDb(), member.workspaceId)).toHaveLength(0);
    await expect(confirmImport(getDb(), member, { text, confirm: ["local"] })).rejects.toThrow(AppError);
    expect(await listServersByWorkspace(getDb(), member.workspaceId)).toHaveLength(0);
  });

  it("shows an administrator the exact launch and creates what is confirmed", async () => {
    const admin = await actor(true);
    const preview = await previewImport(getDb(), admin, { text });
    expect(preview.servers[1]).toMatchObject({ valid: true, needsConsent: true });
    expect(preview.servers[1].launch).toContain("server.js --port 1");
    const { created } = await confirmImport(getDb(), admin, { text, confirm: ["remote", "local"] });
    expect(created).toHaveLength(2);
    const stored = await listServersByWorkspace(getDb(), admin.workspaceId);
    expect(stored.map((s) => s.name).sort()).toEqual(["local", "remote"]);
    const remote = stored.find((s) => s.name === "remote")!;
    expect((await readServerSecrets(getDb(), remote)).headers).toEqual({ Authorization: "Bearer top-secret" });
    // Importing again: the names are taken, so nothing more is saved.
    expect((await previewImport(getDb(), admin, { text })).servers.every((s) => !s.valid)).toBe(true);
    await expect(confirmImport(getDb(), admin, { text, confirm: ["remote"] })).rejects.toThrow(/already exists/);

    const exported = await exportWorkspaceServers(getDb(), admin, "yaml");
    expect(exported).not.toMatch(/top-secret|env-secret/);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the placeholder syntax itself is under test.
    expect(exported).toContain("${input:remote.headers.Authorization}");
  });
});
