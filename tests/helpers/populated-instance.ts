/**
 * A SQLite Switchboard instance with something in every table, made through the app's own query
 * functions (db/queries), as the app would have written it: for the `db copy` tests and the parity
 * of what a move keeps. The caller sets the instance key (`SWITCHBOARD_SECRET_KEY`) first.
 */
import { hashPassword } from "@/lib/security/password";
import { createHash } from "node:crypto";
import { openDatabase, type Db } from "@/db/client";
import { checkInstanceKey, instanceKey } from "@/db/key-check";
import { saveAppContext } from "@/db/queries/app-contexts";
import { saveEntryVersion, updateCatalogEntry } from "@/db/queries/catalog";
import { createRegistry, recordRegistrySync } from "@/db/queries/catalog-registries";
import { flushAudit, recordAudit } from "@/db/queries/audit";
import { confirmTotp, createPendingTotp, replaceRecoveryCodes } from "@/db/queries/factors";
import { createPasskey } from "@/db/queries/passkeys";
import { setInstanceMeta } from "@/db/queries/instance-meta";
import { insertPasswordReset } from "@/db/queries/password-resets";
import { upsertOAuthServerRecord } from "@/db/queries/oauth-server";
import { insertPersonalToken } from "@/db/queries/personal-tokens";
import { takeLease } from "@/db/queries/leases";
import { joinReplicas } from "@/db/queries/replicas";
import { insertQuestion } from "@/db/queries/questions";
import { createChat } from "@/db/queries/chats";
import { putCredential } from "@/db/queries/credentials";
import { insertInvitation, markInvitationAccepted } from "@/db/queries/invitations";
import { upsertMembership } from "@/db/queries/memberships";
import { saveMessage } from "@/db/queries/messages";
import { insertOAuthState } from "@/db/queries/oauth-states";
import { updateServerTrust } from "@/db/queries/server-trust";
import { createServer, setSharedCredentialsUserId } from "@/db/queries/servers";
import { createSession } from "@/db/queries/sessions";
import { saveUserModelChoice } from "@/db/queries/settings";
import { saveToolPin } from "@/db/queries/tool-pins";
import { setToolPolicy, setWorkspaceToolPolicy } from "@/db/queries/tool-policies";
import { createUserWithWorkspace, setUserDisabled } from "@/db/queries/users";
import { createTeamWorkspace } from "@/db/queries/workspaces";
import { sealJson, sealSecret } from "@/db/secrets";
import { insertSsoProvider, saveSsoIdentity } from "@/db/queries/sso";
import { modelSettingsSchema } from "@/lib/models/settings-service";
import { setWorkspaceModel } from "@/lib/models/workspace-default";
import { populateUsage } from "./populated-usage";

/** The secrets written in clear, to compare with what decrypts on the other side. */
export interface PlantedSecrets {
  serverHeaders: Record<string, string>;
  oauthToken: string;
  apiKey: string;
  workspaceApiKey: string;
}

/** What `populateInstance` made. */
export interface PopulatedInstance {
  secrets: PlantedSecrets;
  serverId: string;
  adminId: string;
  /** The workspace the server belongs to. */
  teamId: string;
}

/** The administrator's email and password (a real hash is stored: the moved instance signs her in). */
export const ADMIN_SIGN_IN = { email: "ada@example.com", password: "ada-moves-to-postgres" };

const hash = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * Fill the database at `file` (created and migrated, from `migrationsFolder` when given: an older
 * schema) with a small instance; `bulk` more audit rows and messages.
 */
export async function populateInstance(file: string, bulk = 0, migrationsFolder?: string): Promise<PopulatedInstance> {
  const { db, sqlite } = openDatabase(file, migrationsFolder);
  try {
    checkInstanceKey(db);
    return await fill(db, bulk);
  } finally {
    await flushAudit(db);
    sqlite.close();
  }
}

async function fill(db: Db, bulk: number): Promise<PopulatedInstance> {
  const secrets: PlantedSecrets = {
    serverHeaders: { Authorization: "Bearer planted-header" },
    oauthToken: "planted-oauth-token",
    apiKey: "sk-planted",
    workspaceApiKey: "sk-team-planted",
  };
  const admin = await createUserWithWorkspace(db, {
    email: ADMIN_SIGN_IN.email,
    name: "Ada",
    passwordHash: await hashPassword(ADMIN_SIGN_IN.password),
  });
  const member = await createUserWithWorkspace(db, { email: "bob@example.com", name: "Bob", passwordHash: "scrypt$bob" });
  const gone = await createUserWithWorkspace(db, { email: "cy@example.com", name: "Cy", passwordHash: "scrypt$cy" });
  if (!admin || !member || !gone) throw new Error("users not created");
  await setUserDisabled(db, gone.id, new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678)));
  const now = new Date();
  await createSession(db, { userId: admin.id, now, expiresAt: new Date(now.getTime() + 3_600_000) });
  await createSession(db, { userId: member.id, now, expiresAt: new Date(now.getTime() + 7_200_000) });
  const team = await createTeamWorkspace(db, { name: "Team", slug: "team", ownerId: admin.id });
  await upsertMembership(db, { workspaceId: team.id, userId: member.id, role: "member" });
  const accepted = await insertInvitation(db, {
    workspaceId: team.id,
    email: "bob@example.com",
    role: "member",
    tokenHash: hash("accepted"),
    invitedBy: admin.id,
    expiresAt: new Date(now.getTime() + 86_400_000),
  });
  await markInvitationAccepted(db, { id: accepted.id, userId: member.id }, now);
  await insertInvitation(db, {
    workspaceId: team.id,
    email: "dee@example.com",
    role: "admin",
    tokenHash: hash("pending"),
    invitedBy: admin.id,
    expiresAt: new Date(now.getTime() + 86_400_000),
  });
  const server = await createServer(db, {
    workspaceId: team.id,
    name: "notes",
    config: { url: "https://mcp.example.com/mcp", headers: secrets.serverHeaders },
    createdBy: admin.id,
    memberKeys: ["headers.X-Member"],
  });
  await setSharedCredentialsUserId(db, { id: server.id, workspaceId: team.id }, admin.id);
  await putCredential(
    db,
    { userId: admin.id, serverId: server.id, kind: "tokens" },
    { valueEnc: sealSecret(secrets.oauthToken), expiresAt: new Date(now.getTime() + 60_000) },
  );
  await insertOAuthState(db, {
    state: "state-1",
    userId: member.id,
    serverId: server.id,
    codeVerifierEnc: sealSecret("verifier"),
    expiresAt: new Date(now.getTime() + 600_000),
    forEveryone: true,
  });
  const actor = { id: admin.id, workspaceId: team.id, role: "owner" as const, workspace: team };
  await setWorkspaceModel(
    db,
    actor,
    modelSettingsSchema.parse({ provider: "openai", model: "gpt-team", baseUrl: "", apiKey: secrets.workspaceApiKey }),
  );
  await saveUserModelChoice(db, admin.id, { provider: "openai", model: "gpt-test", baseUrl: null, apiKey: secrets.apiKey });
  const chat = await createChat(db, { ownerId: admin.id, workspaceId: team.id, title: "Notes – ünïcödé" });
  await saveMessage(db, chat.id, { id: "m1", role: "user", parts: [{ type: "text", text: "list my notes" }] });
  await saveMessage(db, chat.id, {
    id: "m2",
    role: "assistant",
    parts: [
      {
        type: "tool-mcp_notes_list",
        toolCallId: "call-1",
        state: "output-available",
        input: { q: "x" },
        output: { notes: ["a", "b"], nested: { z: 1, a: [null, true] } },
      },
      { type: "text", text: "Two notes." },
    ],
    metadata: { model: "gpt-test" },
  } as never);
  await saveAppContext(db, { chatId: chat.id, toolCallId: "call-1", serverId: server.id, serverName: "notes", text: "context" });
  const definition = { name: "list", description: "List notes", inputSchema: { type: "object" } };
  await saveToolPin(db, {
    serverId: server.id,
    toolName: "list",
    state: "pinned",
    approvedHash: hash("list"),
    approvedDefinition: definition,
    currentHash: hash("list"),
    currentDefinition: definition,
    approvedBy: admin.id,
  });
  await saveToolPin(db, {
    serverId: server.id,
    toolName: "delete",
    state: "new",
    approvedHash: null,
    approvedDefinition: null,
    currentHash: hash("delete"),
    currentDefinition: { name: "delete" },
    approvedBy: null,
  });
  await updateServerTrust(db, server.id, { trusted: true, pinnedAt: now }, admin.id);
  await setToolPolicy(db, member.id, { serverId: server.id, toolName: "list", policy: "allow" });
  await setWorkspaceToolPolicy(db, admin.id, { serverId: server.id, toolName: "delete", policy: "deny" });
  await recordAudit(db, { actorId: admin.id, workspaceId: team.id, action: "server.create", target: server.id, detail: { name: "notes" } });
  await recordAudit(db, { actorId: null, action: "instance.start" });
  for (let i = 0; i < bulk; i++) {
    await recordAudit(db, {
      actorId: member.id,
      workspaceId: team.id,
      action: "tool.call",
      target: server.id,
      detail: { tool: "list", n: i },
    });
    if (i % 4 === 0) await saveMessage(db, chat.id, { id: `bulk-${i}`, role: "user", parts: [{ type: "text", text: `message ${i}` }] });
  }
  // Sign-in's own tables: a confirmed second factor with its recovery codes, a reset link, a policy.
  const factor = await createPendingTotp(db, admin.id, "Phone", "JBSWY3DPEHPK3PXP");
  await confirmTotp(db, factor, 1, now);
  await createPasskey(
    db,
    member.id,
    { name: "Laptop", credentialId: "cHJldGVuZC1jcmVkZW50aWFs", publicKey: "pQECAyYgASFYIA", counter: 3, transports: ["internal"] },
    now,
  );
  await replaceRecoveryCodes(
    db,
    admin.id,
    ["code-one", "code-two"].map((code) => createHash("sha256").update(code).digest("hex")),
  );
  await insertPasswordReset(db, {
    userId: member.id,
    tokenHash: createHash("sha256").update("reset-token").digest("hex"),
    issuedBy: admin.id,
    expiresAt: new Date(now.getTime() + 3_600_000),
  });
  await setInstanceMeta(db, "mfa.required_for_admins", "on");
  // Single sign-on: a provider (its client secret sealed) and the member's identity there.
  await insertSsoProvider(db, {
    id: "acme-idp",
    label: "Acme IdP",
    issuer: "https://idp.example.com",
    clientId: "switchboard",
    clientSecretEnc: sealSecret("sso-client-secret"),
    scopes: "openid email profile",
    allowedDomains: ["example.com"],
    claimMapping: { claim: "groups", adminGroups: [], workspaces: [{ group: "team", workspaceId: team.id, role: "member" }] },
  });
  await saveSsoIdentity(db, { providerId: "acme-idp", subject: "member-subject", userId: member.id, groups: ["team"] }, now);
  // The server catalog: a registry, an entry from it with a version, shown in the team workspace.
  const registry = await createRegistry(db, { url: "https://registry.example.com", mode: "chosen", createdBy: admin.id });
  await recordRegistrySync(db, registry.id, { imported: 1, updated: 0, skipped: [] }, now);
  const serverJson = {
    name: "com.example/notes",
    description: "Notes",
    version: "1.0.0",
    remotes: [{ type: "streamable-http", url: "https://mcp.example.com/mcp" }],
  };
  const { entry } = await saveEntryVersion(db, {
    ...serverJson,
    serverJson,
    source: "registry",
    registryId: registry.id,
    isLatest: true,
    publishedAt: now,
  });
  await updateCatalogEntry(db, entry.id, { visibility: "workspaces", workspaceIds: [team.id], pinnedVersion: "1.0.0" });
  await populateUsage(db, { userId: member.id, workspaceId: team.id, serverId: server.id, chatId: chat.id }, now);
  // A personal access token of the member's (its secret kept only as a hash).
  await insertPersonalToken(db, {
    userId: member.id,
    workspaceId: team.id,
    name: "laptop CLI",
    scopes: "mcp api:read",
    tokenHash: createHash("sha256").update("sbp_populated-token").digest("hex"),
    hint: "sbp_popu",
    expiresAt: new Date(now.getTime() + 30 * 86_400_000),
  });
  // A grant of the gateway's authorization server (its payload sealed), for the member's client.
  await upsertOAuthServerRecord(db, {
    keyHash: createHash("sha256").update("Grant\0populated-grant").digest("hex"),
    model: "Grant",
    payloadEnc: sealJson({ accountId: member.id, clientId: "populated-client", jti: "populated-grant" }),
    grantId: "populated-grant",
    uidHash: null,
    userCodeHash: null,
    userId: member.id,
    clientId: "populated-client",
    expiresAt: new Date(now.getTime() + 90 * 86_400_000),
  });
  // A lease a process holds (usage retention keeps its lease for half a period).
  await takeLease(db, "usage-retention", "populated-process", 3 * 3_600_000, now);
  // A replica in the registry.
  const replica = {
    id: "populated",
    host: "box",
    pid: 1,
    version: "0.1.0+dev",
    clustered: false,
    startedAt: now,
    heartbeatAt: now,
    internalUrl: "http://box:3000",
  };
  await joinReplicas(db, replica, now, () => true);
  // A question the server asked the member, waiting on a replica (its payload sealed).
  await insertQuestion(db, {
    id: "00000000-0000-4000-8000-00000000a5c0",
    userId: member.id,
    serverId: server.id,
    kind: "elicitation",
    payload: { serverId: server.id, serverName: "notes", mode: "form", message: "Which folder?" },
    replica: "populated-replica",
    expiresAt: new Date(now.getTime() + 600_000),
  });
  return { secrets, serverId: server.id, adminId: admin.id, teamId: team.id };
}

/** The instance key's fingerprint (what `db check` and `db copy` report). */
export const instanceKeyId = () => instanceKey().id;
