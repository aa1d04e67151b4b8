/**
 * The SQLite tables: `defineTables` (db/tables.ts) built with the SQLite column kit. drizzle-kit reads
 * this module's named exports to generate drizzle/sqlite (drizzle.config.ts); the app's queries
 * import db/schema.ts, which hands out these or their Postgres twins.
 */
import { sqliteColumns } from "./columns/sqlite";
import { defineTables } from "./tables";

const tables = defineTables(sqliteColumns);

/** The SQLite tables (see `defineTables` in db/tables.ts for what each holds). */
export const {
  users,
  sessions,
  userFactors,
  passkeyCredentials,
  recoveryCodes,
  workspaces,
  invitations,
  passwordResets,
  workspaceSettings,
  memberships,
  mcpServers,
  serverCredentials,
  oauthStates,
  chats,
  messages,
  userSettings,
  toolPolicies,
  workspaceToolPolicies,
  serverTrust,
  toolPins,
  auditLog,
  instanceMeta,
  appContexts,
  catalogRegistries,
  catalogEntries,
  catalogVersions,
  catalogEntryWorkspaces,
  ssoProviders,
  ssoIdentities,
  usageModelRequests,
  usageMcpRequests,
  usageDaily,
  usageLatency,
  usagePrices,
  usageBudgets,
  personalTokens,
  oauthServerRecords,
  leases,
  replicas,
  pendingQuestions,
} = tables;
