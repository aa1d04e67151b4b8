/** Shared set-up for the workspace tests: users in a temp app, a team, and access effects over a real pool. */
import { getDb } from "@/db/client";
import { getMembershipRole, getWorkspaceById, getPersonalWorkspaceId } from "@/db/queries/workspaces";
import { registerTestUser } from "../../helpers/register";
import type { McpPool } from "@/lib/mcp";
import type { Db } from "@/db/client";
import type { AuthProviderFactory } from "@/lib/mcp/types";
import { providerFor, type OAuthDeps } from "@/lib/oauth/web/deps";
import { forEveryoneDeps } from "@/lib/oauth/web/for-everyone";
import { credentialAccountFor } from "@/lib/servers/credential-mode";
import { disconnect } from "@/lib/oauth/web/flow";
import type { AccessEffects } from "@/lib/domain/access-effects";
import type { WorkspaceActor } from "@/lib/domain/workspace";
import { createWorkspace } from "@/lib/workspaces/service";

/** A registered user. */
export interface Person {
  id: string;
  email: string;
  name: string;
  personalWorkspaceId: string;
}

/** Register a user through the shared sign-up path. */
export async function person(email: string): Promise<Person> {
  const db = getDb();
  const user = await registerTestUser(db, { email, password: "a long enough password", name: email.split("@")[0] });
  return { id: user.id, email: user.email, name: user.name, personalWorkspaceId: (await getPersonalWorkspaceId(db, user.id))! };
}

/** The user acting inside a workspace, as `requireWorkspace` would build it (role read from the database). */
export async function actorIn(user: Person, workspaceId: string): Promise<WorkspaceActor & { isAdmin: boolean }> {
  const db = getDb();
  const role = await getMembershipRole(db, workspaceId, user.id);
  if (!role) throw new Error(`${user.email} is not a member`);
  return { id: user.id, isAdmin: false, workspaceId, role, workspace: (await getWorkspaceById(db, workspaceId))! };
}

/** A team workspace owned by `owner`. */
export async function team(owner: Person, name: string): Promise<string> {
  return (await createWorkspace(getDb(), owner.id, name)).id;
}

/** Access effects over a test pool and OAuth deps, recording what was asked of them. */
export function recordingEffects(pool: McpPool, deps?: OAuthDeps) {
  const calls = { stopped: [] as Array<[string | null, string | null]>, closed: [] as Array<[string | null, string[] | undefined]> };
  const effects: AccessEffects = {
    async closeConnections(userId, serverIds) {
      calls.closed.push([userId, serverIds]);
      if (userId) await pool.closeUser(userId, serverIds);
      else await Promise.all((serverIds ?? []).map((id) => pool.closeServer(id)));
    },
    async forgetTokens(userId, servers) {
      if (deps) for (const server of servers) await disconnect(deps, userId, server);
    },
    async stopTurns(userId, workspaceId) {
      calls.stopped.push([userId, workspaceId]);
    },
  };
  return { effects, calls };
}

/**
 * The app's auth provider wiring (lib/runtime/engine.ts) over test deps: a `shared` server's calls use
 * the shared slot of whoever connected it for everyone, a `per_member` one the caller's own tokens.
 */
export function sharedAwareProvider(db: Db, deps: OAuthDeps): AuthProviderFactory {
  return async (userId, server) => {
    if (!server.config.url) return undefined;
    const account = await credentialAccountFor(db, userId, server);
    return providerFor(account.forEveryone ? forEveryoneDeps(deps) : deps, account.userId, server);
  };
}
