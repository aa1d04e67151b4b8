/**
 * The load modes' seeding, run as a child of the bench (bench/load.ts `seed`) against the app's own
 * database: the one its environment names (SWITCHBOARD_DATA_DIR, and DATABASE_URL on Postgres),
 * opened the way the app opens it, so one seeding serves both databases. `users` users, each with a
 * personal workspace, a session and `servers` servers at `upstream`; prints them as JSON.
 * Arguments: `<users> <servers> <upstream>`.
 */
import { closeDb, getDb } from "../db/client";
import { createServer } from "../db/queries/servers";
import { createUserWithWorkspace } from "../db/queries/users";
import { getPersonalWorkspaceId } from "../db/queries/workspaces";
import { withTransaction } from "../db/transaction";
import { startSession } from "../lib/auth/sessions";

/** One seeded user, as the child prints it. */
export interface SeededUser {
  userId: string;
  sid: string;
  serverIds: string[];
}

async function main(): Promise<void> {
  const [users, servers, upstream] = [Number(process.argv[2]), Number(process.argv[3]), process.argv[4]];
  if (!users || !servers || !upstream) throw new Error("usage: seed.ts <users> <servers> <upstream>");
  const seeded: SeededUser[] = await withTransaction(getDb(), async (tx) => {
    const people: SeededUser[] = [];
    // One after another: on Postgres every statement of a transaction goes over its one connection anyway.
    for (let u = 0; u < users; u++) {
      const user = await createUserWithWorkspace(tx, { email: `load${u}@bench.invalid`, name: `load${u}`, passwordHash: "none" });
      if (!user) throw new Error(`load user ${u} exists`);
      const workspaceId = (await getPersonalWorkspaceId(tx, user.id))!;
      const serverIds: string[] = [];
      for (let s = 0; s < servers; s++) {
        const server = await createServer(tx, {
          workspaceId,
          name: `up${s}`,
          config: { url: `${upstream}/mcp/good?u=${u}&s=${s}`, supports_parallel_tool_calls: true },
          createdBy: user.id,
        });
        serverIds.push(server.id);
      }
      people.push({ userId: user.id, sid: await startSession(tx, user.id), serverIds });
    }
    return people;
  });
  await closeDb();
  process.stdout.write(JSON.stringify(seeded));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
