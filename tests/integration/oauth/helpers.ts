/** Shared set-up for the OAuth integration tests: a temp SQLite app, two users, the fixture AS + MCP server. */
import { getDb } from "@/db/client";
import { instanceKey } from "@/db/key-check";
import { createServer, toServerDefinition } from "@/db/queries/servers";
import { getPersonalWorkspaceId } from "@/db/queries/workspaces";
import { registerTestUser } from "../../helpers/register";
import type { ServerDefinition } from "@/lib/mcp";
import { createGuardedFetch, parseAllowedHosts } from "@/lib/net";
import type { OAuthDeps } from "@/lib/oauth/web/deps";
import { createDbStore } from "@/lib/oauth/web/db-store";
import { startOAuthFixture } from "../../fixtures/oauth/server.mjs";
import { completeDevLogin } from "../../fixtures/oauth/dev-login.mjs";

/** The callback URL the tests register (never fetched: the test hands its query to the flow). */
export const REDIRECT_URL = "http://localhost:3111/api/oauth/callback";

/** What startOAuthFixture returns. */
export interface OAuthFixture {
  issuer: string;
  mcpUrl: string;
  stats: {
    refreshGrants: number;
    codeGrants: number;
    revocations: number;
    registrations: number;
    /** What each registration asked for. */
    registered: Array<{ application_type?: string; scope?: string }>;
    /** The `scope` of each authorization request. */
    authorizationScopes: string[];
    bearerSubjects: string[];
    tokensSeen: string[];
    rejected: number;
    stepUpChallenges?: number;
  };
  provider: { RefreshToken: { find(token: string): Promise<{ destroy(): Promise<void> } | undefined> } };
  close(): Promise<void>;
}

/** Start an AS + MCP fixture. */
export function startFixture(options: { accessTtl?: number; stepUpScope?: string; offlineAccess?: boolean } = {}): Promise<OAuthFixture> {
  return startOAuthFixture(options);
}

/** Sign in at the fixture AS as `login`, consent, and return the callback URL's query. */
export async function devLogin(authorizationUrl: string, login: string): Promise<URL> {
  return completeDevLogin(authorizationUrl, login, REDIRECT_URL);
}

/** A user of the temp app. */
export interface TestUser {
  id: string;
  workspaceId: string;
}

/** Register a user in the temp app. */
export async function signUp(email: string): Promise<TestUser> {
  const db = getDb();
  const user = await registerTestUser(db, { email, password: "a long enough password", name: email.split("@")[0] });
  return { id: user.id, workspaceId: (await getPersonalWorkspaceId(db, user.id))! };
}

/** Store an `auth: oauth` server for `url` in the user's workspace and return its definition. */
export async function addOAuthServer(owner: TestUser, name: string, url: string): Promise<ServerDefinition> {
  const db = getDb();
  const record = await createServer(db, { workspaceId: owner.workspaceId, name, config: { url, auth: "oauth" }, createdBy: owner.id });
  return await toServerDefinition(db, record);
}

/** OAuth collaborators over the temp SQLite file, loopback allowed (the fixture is on 127.0.0.1). */
export function testDeps(overrides: Partial<OAuthDeps> = {}): OAuthDeps {
  const allowedHosts = parseAllowedHosts("127.0.0.1,localhost");
  return {
    store: createDbStore(getDb(), instanceKey()),
    policy: { allowLoopbackHttp: true },
    oauthFetch: createGuardedFetch({ allowedHosts, allowHttp: "loopback" }),
    serverFetch: createGuardedFetch({ allowedHosts }),
    redirectUrl: REDIRECT_URL,
    ...overrides,
  };
}
