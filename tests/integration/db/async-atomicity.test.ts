// Query functions that read and then write must not yield in between now that they are async:
// another request's change would land in the gap and be overwritten by the stale read.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { getServerTrust, updateServerTrust } from "@/db/queries/server-trust";
import { getPersonalWorkspaceId } from "@/db/queries/workspaces";
import { addServer } from "@/lib/servers/service";
import { registerTestUser } from "../../helpers/register";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";

let dir: string;
let serverId: string;

beforeAll(async () => {
  dir = useTempDataDir();
  const db = getDb();
  const user = await registerTestUser(db, { email: "owner@example.com", password: "a long enough password", name: "Owner" });
  const workspaceId = (await getPersonalWorkspaceId(db, user.id))!;
  const server = await addServer(
    db,
    { id: user.id, isAdmin: user.isAdmin, workspaceId },
    { name: "remote", config: { url: "https://x.example/mcp" } },
  );
  serverId = server.id;
});
afterAll(() => removeTempDataDir(dir));

describe("async query functions keep their read-modify-write atomic", () => {
  it("two concurrent trust changes of different fields both survive", async () => {
    const db = getDb();
    await Promise.all([
      updateServerTrust(db, serverId, { trusted: true }, null),
      updateServerTrust(db, serverId, { trifectaCheck: false }, null),
    ]);
    expect(await getServerTrust(db, serverId)).toMatchObject({ trusted: true, trifectaCheck: false });
  });
});
