/**
 * The whole product's schema. Secret columns hold AES-256-GCM envelopes from lib/crypto.ts
 * (suffix `_enc`); nothing secret is stored in clear.
 */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

const id = () => text("id").primaryKey();
const createdAt = () => integer("created_at", { mode: "timestamp_ms" }).notNull().default(sql`(unixepoch('subsec') * 1000)`);
const updatedAt = () => integer("updated_at", { mode: "timestamp_ms" }).notNull().default(sql`(unixepoch('subsec') * 1000)`);

/** People who can sign in. The first one registered is the instance administrator. */
export const users = sqliteTable("users", {
  id: id(),
  email: text("email").notNull().unique(),
  name: text("name").notNull(),
  passwordHash: text("password_hash").notNull(),
  isAdmin: integer("is_admin", { mode: "boolean" }).notNull().default(false),
  /** Set when an instance administrator disables the account: it counts as signed out from then on. */
  disabledAt: integer("disabled_at", { mode: "timestamp_ms" }),
  createdAt: createdAt(),
});

/**
 * A signed-in browser session. The JWT cookie carries only this id; every request looks the row up
 * (by primary key), so ending a row signs that browser out at once.
 */
export const sessions = sqliteTable(
  "sessions",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    lastSeenAt: integer("last_seen_at", { mode: "timestamp_ms" }).notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    endedAt: integer("ended_at", { mode: "timestamp_ms" }),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/** A workspace shares server configs between its members; each user has a personal one. */
export const workspaces = sqliteTable("workspaces", {
  id: id(),
  name: text("name").notNull(),
  /** URL name of a team workspace (`/w/<slug>/…`); null for personal ones, which answer to `personal`. */
  slug: text("slug").unique(),
  personalOwnerId: text("personal_owner_id").references(() => users.id, { onDelete: "cascade" }),
  createdAt: createdAt(),
});

/**
 * A single-use invitation into a workspace. Only the SHA-256 of the token is stored: the link is
 * shown once to the inviter, and a database leak does not hand out working links.
 */
export const invitations = sqliteTable(
  "invitations",
  {
    id: id(),
    /** Null for an instance invitation (an administrator creating an account): no workspace joined. */
    workspaceId: text("workspace_id").references(() => workspaces.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    role: text("role", { enum: ["owner", "admin", "member"] }).notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    invitedBy: text("invited_by").references(() => users.id, { onDelete: "set null" }),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    acceptedAt: integer("accepted_at", { mode: "timestamp_ms" }),
    acceptedBy: text("accepted_by").references(() => users.id, { onDelete: "set null" }),
    revokedAt: integer("revoked_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [index("invitations_workspace_idx").on(t.workspaceId)],
);

/** A workspace's default model, used by members who have not set their own. The key is encrypted. */
export const workspaceSettings = sqliteTable("workspace_settings", {
  workspaceId: text("workspace_id")
    .primaryKey()
    .references(() => workspaces.id, { onDelete: "cascade" }),
  provider: text("provider"),
  model: text("model"),
  baseUrl: text("base_url"),
  apiKeyEnc: text("api_key_enc"),
  /** Tool search (docs/tool-search.md): null = the default (40 tools, 20000 estimated tokens, none always loaded). */
  toolSearchThreshold: integer("tool_search_threshold"),
  toolSearchMaxTokens: integer("tool_search_max_tokens"),
  alwaysLoadedTools: text("always_loaded_tools", { mode: "json" }).$type<string[]>(),
  updatedBy: text("updated_by").references(() => users.id, { onDelete: "set null" }),
  updatedAt: updatedAt(),
});

/** Membership with a role: owner, admin or member. */
export const memberships = sqliteTable(
  "memberships",
  {
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["owner", "admin", "member"] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.userId] }), index("memberships_user_idx").on(t.userId)],
);

/**
 * An MCP server of a workspace. `config` is the server config (docs/configuration.md) as JSON with every secret
 * value (header values, env values, OAuth client secret) replaced by a reference into `secretsEnc`.
 */
export const mcpServers = sqliteTable(
  "mcp_servers",
  {
    id: id(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    transport: text("transport", { enum: ["stdio", "http"] }).notNull(),
    config: text("config", { mode: "json" }).notNull(),
    secretsEnc: text("secrets_enc"),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    /** For a `shared` server: the owner/admin whose credentials (OAuth tokens) every member's calls use. */
    sharedCredentialsUserId: text("shared_credentials_user_id").references(() => users.id, { onDelete: "set null" }),
    /** Header/env keys (`headers.X-Api-Key`, `env.TOKEN`) each member fills with their own value. */
    memberKeys: text("member_keys", { mode: "json" }).$type<string[]>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("mcp_servers_workspace_name_idx").on(t.workspaceId, t.name)],
);

/** Per-user, per-server credentials: OAuth tokens, client registration, PKCE verifier (encrypted). */
export const serverCredentials = sqliteTable(
  "server_credentials",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    serverId: text("server_id")
      .notNull()
      .references(() => mcpServers.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    valueEnc: text("value_enc").notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.serverId, t.kind] })],
);

/** Short-lived OAuth `state` values: single use, bound to the user who started the flow. */
export const oauthStates = sqliteTable("oauth_states", {
  state: text("state").primaryKey(),
  userId: text("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  serverId: text("server_id")
    .notNull()
    .references(() => mcpServers.id, { onDelete: "cascade" }),
  expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
  /** The PKCE verifier of this authorization (encrypted): bound to the state, so parallel flows never mix. */
  codeVerifierEnc: text("code_verifier_enc"),
  /** A "Connect for everyone" of a shared server: the tokens go to the user's shared slot, apart from their own. */
  forEveryone: integer("for_everyone", { mode: "boolean" }).notNull().default(false),
  createdAt: createdAt(),
});

/** A conversation, owned by one user inside a workspace. */
export const chats = sqliteTable(
  "chats",
  {
    id: id(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("chats_owner_idx").on(t.ownerId, t.updatedAt)],
);

/** One message with all its parts (text, tool calls and results, attachments) as UI-message JSON. */
export const messages = sqliteTable(
  "messages",
  {
    id: id(),
    chatId: text("chat_id")
      .notNull()
      .references(() => chats.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["user", "assistant", "system"] }).notNull(),
    parts: text("parts", { mode: "json" }).notNull(),
    metadata: text("metadata", { mode: "json" }),
    createdAt: createdAt(),
  },
  (t) => [index("messages_chat_idx").on(t.chatId, t.createdAt)],
);

/** Per-user model settings; the API key is encrypted. */
export const userSettings = sqliteTable("user_settings", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  provider: text("provider"),
  model: text("model"),
  baseUrl: text("base_url"),
  apiKeyEnc: text("api_key_enc"),
  updatedAt: updatedAt(),
});

/** Per-user tool approval policy, keyed by server and raw tool name. */
export const toolPolicies = sqliteTable(
  "tool_policies",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    serverId: text("server_id")
      .notNull()
      .references(() => mcpServers.id, { onDelete: "cascade" }),
    toolName: text("tool_name").notNull(),
    policy: text("policy", { enum: ["ask", "allow", "deny"] }).notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.serverId, t.toolName] })],
);

/**
 * A workspace-wide approval policy for one tool, set by workspace owners/admins. Members cannot
 * loosen it: the effective policy is the stricter of this and the member's own `tool_policies` row.
 */
export const workspaceToolPolicies = sqliteTable(
  "workspace_tool_policies",
  {
    serverId: text("server_id")
      .notNull()
      .references(() => mcpServers.id, { onDelete: "cascade" }),
    toolName: text("tool_name").notNull(),
    policy: text("policy", { enum: ["ask", "allow", "deny"] }).notNull(),
    updatedBy: text("updated_by").references(() => users.id, { onDelete: "set null" }),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.serverId, t.toolName] })],
);

/**
 * Trust settings of a server (a row exists once the server was first listed or someone changed a
 * setting; no row = untrusted, lethal-trifecta check on, nothing pinned yet). Kept beside
 * `mcp_servers` so the engine's server record stays free of agent policy.
 */
export const serverTrust = sqliteTable("server_trust", {
  serverId: text("server_id")
    .primaryKey()
    .references(() => mcpServers.id, { onDelete: "cascade" }),
  trusted: integer("trusted", { mode: "boolean" }).notNull().default(false),
  trifectaCheck: integer("trifecta_check", { mode: "boolean" }).notNull().default(true),
  /** When the first tool list was pinned (null = not yet: the next listing becomes the pinned one). */
  pinnedAt: integer("pinned_at", { mode: "timestamp_ms" }),
  updatedBy: text("updated_by").references(() => users.id, { onDelete: "set null" }),
  updatedAt: updatedAt(),
});

/**
 * The approved definition of each server tool (rug-pull protection). `approved*` is what a person
 * saw; `current*` is the latest listing. `state` is `pinned` when they match, else `new`/`changed`:
 * the tool is held from the model until someone approves the current definition.
 */
export const toolPins = sqliteTable(
  "tool_pins",
  {
    serverId: text("server_id")
      .notNull()
      .references(() => mcpServers.id, { onDelete: "cascade" }),
    toolName: text("tool_name").notNull(),
    state: text("state", { enum: ["pinned", "new", "changed"] }).notNull(),
    approvedHash: text("approved_hash"),
    approvedDefinition: text("approved_definition", { mode: "json" }),
    currentHash: text("current_hash").notNull(),
    currentDefinition: text("current_definition", { mode: "json" }).notNull(),
    approvedBy: text("approved_by").references(() => users.id, { onDelete: "set null" }),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.serverId, t.toolName] })],
);

/** Who did what to which target, and when. */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    actorId: text("actor_id").references(() => users.id, { onDelete: "set null" }),
    workspaceId: text("workspace_id"),
    action: text("action").notNull(),
    target: text("target"),
    detail: text("detail", { mode: "json" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("audit_log_created_idx").on(t.createdAt),
    index("audit_log_workspace_idx").on(t.workspaceId, t.id),
    index("audit_log_actor_idx").on(t.actorId, t.id),
  ],
);

/** Instance facts kept with the data, such as the fingerprint of the key that encrypted it. */
export const instanceMeta = sqliteTable("instance_meta", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

/**
 * Context an MCP App asked to give the model (docs/mcp-apps.md): one entry per (chat, tool call),
 * replaced by each update, redacted, and moved into the next user message of the chat.
 */
export const appContexts = sqliteTable(
  "app_contexts",
  {
    chatId: text("chat_id")
      .notNull()
      .references(() => chats.id, { onDelete: "cascade" }),
    toolCallId: text("tool_call_id").notNull(),
    serverId: text("server_id").notNull(),
    serverName: text("server_name").notNull(),
    text: text("text").notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.chatId, t.toolCallId] })],
);
