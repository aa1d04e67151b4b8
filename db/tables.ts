/**
 * The whole product's schema, once for both databases: every table over a column kit (db/columns/).
 * db/schema.ts builds it for SQLite and db/schema-postgres.ts for Postgres (docs/database.md).
 * Secret columns hold AES-256-GCM envelopes from lib/crypto.ts (suffix `_enc`); nothing secret is
 * stored in clear.
 */
import type { ColumnKit } from "./columns/sqlite";
import { defineUsageTables } from "./tables-usage";
import { defineSsoTables } from "./tables-sso";
import { defineCatalogTables } from "./tables-catalog";
import { defineIdentityTables } from "./tables-identity";
import { defineTrustTables } from "./tables-trust";
import { definePersonalTokenTables } from "./tables-tokens";
import { defineLeaseTables } from "./tables-leases";
import { defineQuestionTables } from "./tables-questions";
import { defineOAuthServerTables } from "./tables-oauth-server";

/**
 * Every table, built with the column kit `k`. Use only the kit's helpers and the builder methods both
 * dialects share (notNull, default, unique, references, $type): a migration per dialect comes from this.
 */
export function defineTables(k: ColumnKit) {
  const identity = defineIdentityTables(k);
  const { users } = identity;
  /** People who can sign in. The first one registered is the instance administrator. */
  /** A workspace shares server configs between its members; each user has a personal one. */
  const workspaces = k.table("workspaces", {
    id: k.id(),
    name: k.text("name").notNull(),
    /** URL name of a team workspace (`/w/<slug>/…`); null for personal ones, which answer to `personal`. */
    slug: k.text("slug").unique(),
    personalOwnerId: k.text("personal_owner_id").references(() => users.id, { onDelete: "cascade" }),
    createdAt: k.createdAt(),
  });

  /**
   * A single-use invitation into a workspace. Only the SHA-256 of the token is stored: the link is
   * shown once to the inviter, and a database leak does not hand out working links.
   */
  const invitations = k.table(
    "invitations",
    {
      id: k.id(),
      /** Null for an instance invitation (an administrator creating an account): no workspace joined. */
      workspaceId: k.text("workspace_id").references(() => workspaces.id, { onDelete: "cascade" }),
      email: k.text("email").notNull(),
      role: k.enum("role", ["owner", "admin", "member"]).notNull(),
      tokenHash: k.text("token_hash").notNull().unique(),
      invitedBy: k.text("invited_by").references(() => users.id, { onDelete: "set null" }),
      expiresAt: k.timestamp("expires_at").notNull(),
      acceptedAt: k.timestamp("accepted_at"),
      acceptedBy: k.text("accepted_by").references(() => users.id, { onDelete: "set null" }),
      revokedAt: k.timestamp("revoked_at"),
      createdAt: k.createdAt(),
    },
    (t) => [k.index("invitations_workspace_idx").on(t.workspaceId)],
  );

  /** A workspace's default model, used by members who have not set their own. The key is encrypted. */
  const workspaceSettings = k.table("workspace_settings", {
    workspaceId: k
      .text("workspace_id")
      .primaryKey()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    provider: k.text("provider"),
    model: k.text("model"),
    baseUrl: k.text("base_url"),
    apiKeyEnc: k.text("api_key_enc"),
    /** Tool search (docs/tool-search.md): null = the default (40 tools, 20000 estimated tokens, none always loaded). */
    toolSearchThreshold: k.integer("tool_search_threshold"),
    toolSearchMaxTokens: k.integer("tool_search_max_tokens"),
    alwaysLoadedTools: k.json("always_loaded_tools").$type<string[]>(),
    /** Members (not only owners and admins) may add remote servers from the catalog (docs/catalog.md#who-adds); null = no. */
    catalogMembersAdd: k.boolean("catalog_members_add"),
    updatedBy: k.text("updated_by").references(() => users.id, { onDelete: "set null" }),
    updatedAt: k.updatedAt(),
  });

  /** Membership with a role: owner, admin or member. */
  const memberships = k.table(
    "memberships",
    {
      workspaceId: k
        .text("workspace_id")
        .notNull()
        .references(() => workspaces.id, { onDelete: "cascade" }),
      userId: k
        .text("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      role: k.enum("role", ["owner", "admin", "member"]).notNull(),
      createdAt: k.createdAt(),
    },
    (t) => [k.primaryKey({ columns: [t.workspaceId, t.userId] }), k.index("memberships_user_idx").on(t.userId)],
  );

  /**
   * An MCP server of a workspace. `config` is the server config (docs/configuration.md) as JSON with every secret
   * value (header values, env values, OAuth client secret) replaced by a reference into `secretsEnc`.
   */
  const mcpServers = k.table(
    "mcp_servers",
    {
      id: k.id(),
      workspaceId: k
        .text("workspace_id")
        .notNull()
        .references(() => workspaces.id, { onDelete: "cascade" }),
      name: k.text("name").notNull(),
      transport: k.enum("transport", ["stdio", "http"]).notNull(),
      config: k.json("config").notNull(),
      secretsEnc: k.text("secrets_enc"),
      createdBy: k.text("created_by").references(() => users.id, { onDelete: "set null" }),
      /** For a `shared` server: the owner/admin whose credentials (OAuth tokens) every member's calls use. */
      sharedCredentialsUserId: k.text("shared_credentials_user_id").references(() => users.id, { onDelete: "set null" }),
      /** Header/env keys (`headers.X-Api-Key`, `env.TOKEN`) each member fills with their own value. */
      memberKeys: k.json("member_keys").$type<string[]>(),
      /**
       * The catalog entry and version it was added from (docs/catalog.md#updates); null for one typed
       * by hand. No foreign key: a removed entry leaves the server running as configured.
       */
      catalogEntryId: k.text("catalog_entry_id"),
      catalogVersion: k.text("catalog_version"),
      createdAt: k.createdAt(),
      updatedAt: k.updatedAt(),
    },
    (t) => [k.uniqueIndex("mcp_servers_workspace_name_idx").on(t.workspaceId, t.name)],
  );

  /** Per-user, per-server credentials: OAuth tokens, client registration, PKCE verifier (encrypted). */
  const serverCredentials = k.table(
    "server_credentials",
    {
      userId: k
        .text("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      serverId: k
        .text("server_id")
        .notNull()
        .references(() => mcpServers.id, { onDelete: "cascade" }),
      kind: k.text("kind").notNull(),
      valueEnc: k.text("value_enc").notNull(),
      expiresAt: k.timestamp("expires_at"),
      updatedAt: k.updatedAt(),
    },
    (t) => [k.primaryKey({ columns: [t.userId, t.serverId, t.kind] })],
  );

  /** Short-lived OAuth `state` values: single use, bound to the user who started the flow. */
  const oauthStates = k.table("oauth_states", {
    state: k.text("state").primaryKey(),
    userId: k
      .text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    serverId: k
      .text("server_id")
      .notNull()
      .references(() => mcpServers.id, { onDelete: "cascade" }),
    expiresAt: k.timestamp("expires_at").notNull(),
    /** The PKCE verifier of this authorization (encrypted): bound to the state, so parallel flows never mix. */
    codeVerifierEnc: k.text("code_verifier_enc"),
    /** A "Connect for everyone" of a shared server: the tokens go to the user's shared slot, apart from their own. */
    forEveryone: k.boolean("for_everyone").notNull().default(false),
    createdAt: k.createdAt(),
  });

  /** A conversation, owned by one user inside a workspace. */
  const chats = k.table(
    "chats",
    {
      id: k.id(),
      ownerId: k
        .text("owner_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      workspaceId: k
        .text("workspace_id")
        .notNull()
        .references(() => workspaces.id, { onDelete: "cascade" }),
      title: k.text("title").notNull(),
      createdAt: k.createdAt(),
      updatedAt: k.updatedAt(),
    },
    (t) => [k.index("chats_owner_idx").on(t.ownerId, t.updatedAt)],
  );

  /** One message with all its parts (text, tool calls and results, attachments) as UI-message JSON. */
  const messages = k.table(
    "messages",
    {
      id: k.id(),
      chatId: k
        .text("chat_id")
        .notNull()
        .references(() => chats.id, { onDelete: "cascade" }),
      role: k.enum("role", ["user", "assistant", "system"]).notNull(),
      parts: k.json("parts").notNull(),
      metadata: k.json("metadata"),
      createdAt: k.createdAt(),
      /** Insertion order within the chat (messages saved in one millisecond); set on insert to the chat's largest + 1. */
      seq: k.integer("seq").notNull().default(0),
    },
    (t) => [k.index("messages_chat_idx").on(t.chatId, t.createdAt)],
  );

  /** Per-user model settings; the API key is encrypted. */
  const userSettings = k.table("user_settings", {
    userId: k
      .text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    provider: k.text("provider"),
    model: k.text("model"),
    baseUrl: k.text("base_url"),
    apiKeyEnc: k.text("api_key_enc"),
    updatedAt: k.updatedAt(),
  });

  /** Who did what to which target, and when. */
  const auditLog = k.table(
    "audit_log",
    {
      id: k.serialId("id"),
      actorId: k.text("actor_id").references(() => users.id, { onDelete: "set null" }),
      workspaceId: k.text("workspace_id"),
      action: k.text("action").notNull(),
      target: k.text("target"),
      detail: k.json("detail"),
      createdAt: k.createdAt(),
    },
    (t) => [
      k.index("audit_log_created_idx").on(t.createdAt),
      k.index("audit_log_workspace_idx").on(t.workspaceId, t.id),
      k.index("audit_log_actor_idx").on(t.actorId, t.id),
    ],
  );

  /** Instance facts kept with the data, such as the fingerprint of the key that encrypted it. */
  const instanceMeta = k.table("instance_meta", {
    key: k.text("key").primaryKey(),
    value: k.text("value").notNull(),
  });

  /**
   * Context an MCP App asked to give the model (docs/mcp-apps.md): one entry per (chat, tool call),
   * replaced by each update, redacted, and moved into the next user message of the chat.
   */
  const appContexts = k.table(
    "app_contexts",
    {
      chatId: k
        .text("chat_id")
        .notNull()
        .references(() => chats.id, { onDelete: "cascade" }),
      toolCallId: k.text("tool_call_id").notNull(),
      serverId: k.text("server_id").notNull(),
      serverName: k.text("server_name").notNull(),
      text: k.text("text").notNull(),
      updatedAt: k.updatedAt(),
    },
    (t) => [k.primaryKey({ columns: [t.chatId, t.toolCallId] })],
  );

  return {
    ...identity,
    workspaces,
    invitations,
    workspaceSettings,
    memberships,
    mcpServers,
    serverCredentials,
    oauthStates,
    chats,
    messages,
    userSettings,
    ...defineTrustTables(k, { users, mcpServers }),
    auditLog,
    instanceMeta,
    appContexts,
    ...defineCatalogTables(k, { users, workspaces }),
    ...defineSsoTables(k, users),
    ...defineUsageTables(k),
    ...definePersonalTokenTables(k, { users, workspaces }),
    ...defineLeaseTables(k),
    ...defineQuestionTables(k, { users, workspaces }),
    ...defineOAuthServerTables(k, { users }),
  };
}
