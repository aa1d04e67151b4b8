/**
 * `npx tsx bench/lookups.ts`: the per-request lookups of one API tool call on a real SQLite file,
 * uncached (the queries each request used to run: session row, user, personal workspace, workspace
 * and role, server row and its decrypted secrets, the OAuth token read before the MCP request)
 * against the cached path (lib/lookup-cache.ts), in µs per request. In-process, so Next's and the
 * network's cost are not in it: this is the part the caches remove.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeDb, getDb } from "../db/client";
import { instanceKey } from "../db/key-check";
import { getSessionState } from "../db/queries/sessions";
import { getServerById, readServerSecrets } from "../db/queries/servers";
import { getUserById } from "../db/queries/users";
import { getMembershipRole, getPersonalWorkspaceId, getWorkspaceById } from "../db/queries/workspaces";
import { getCredential } from "../db/queries/credentials";
import { decrypt } from "../lib/crypto";
import { resolveSession, startSession } from "../lib/auth/sessions";
import { cachedServerDefinition } from "../lib/runtime/definition-cache";
import { createDbStore } from "../lib/oauth/web/db-store";
import { addServer } from "../lib/servers/service";
import { membershipOf } from "../lib/workspaces/membership-lookup";
import { registerTestUser } from "../tests/helpers/register";

// The lookups are async now: each figure includes one await per lookup.
async function perCall(label: string, runs: number, fn: () => Promise<void>): Promise<number> {
  for (let i = 0; i < 2000; i++) await fn();
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) await fn();
  const us = ((performance.now() - t0) * 1000) / runs;
  console.log(`| ${label} | ${us.toFixed(1)} |`);
  return us;
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-lookups-"));
  process.env.SWITCHBOARD_DATA_DIR = dir;
  const db = getDb();
  const user = await registerTestUser(db, { email: "l@example.com", password: "a long enough password", name: "L" });
  const workspaceId = (await getPersonalWorkspaceId(db, user.id))!;
  const server = await addServer(
    db,
    { id: user.id, isAdmin: true, workspaceId },
    {
      name: "s",
      config: { url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer secret" } },
    },
  );
  const sid = await startSession(db, user.id);
  const store = createDbStore(db, instanceKey());
  const ref = { userId: user.id, serverId: server.id };
  console.log("| per request | µs |\n|---|---|");
  const before = await perCall("uncached: 7 queries, 1 decryption (+ token read)", 20_000, async () => {
    await getSessionState(db, sid);
    await getUserById(db, user.id);
    await getPersonalWorkspaceId(db, user.id);
    const ws = (await getWorkspaceById(db, (await getPersonalWorkspaceId(db, user.id))!))!;
    await getMembershipRole(db, ws.id, user.id);
    const record = (await getServerById(db, { id: server.id, workspaceId }))!;
    await readServerSecrets(db, record);
    const token = await getCredential(db, { ...ref, kind: "tokens" });
    if (token) decrypt(token.valueEnc, instanceKey());
  });
  const after = await perCall("cached (change stamp checked per lookup)", 20_000, async () => {
    await resolveSession(db, sid);
    await membershipOf(db, user.id, null);
    await cachedServerDefinition(db, { id: user.id, workspaceId }, server.id);
    await store.get(ref, "tokens");
  });
  console.log(`\n${(before / after).toFixed(1)}× fewer µs on the lookups of one call`);
  await closeDb();
  fs.rmSync(dir, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
