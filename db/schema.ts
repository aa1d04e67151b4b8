/**
 * The tables of the database this process runs on, which every query imports: the SQLite tables
 * (db/schema-sqlite.ts), or their Postgres twins (db/schema-postgres.ts) when `DATABASE_URL` names
 * Postgres. Both are typed as the SQLite tables: the twins read and take the same row types, and each
 * maps its values the way its own driver needs (Dates, booleans, JSON), which a SQLite column handed
 * to the Postgres driver would not.
 */
import { databaseDialect } from "./dialect";
import * as postgres from "./schema-postgres";
import * as sqlite from "./schema-sqlite";

// Chosen once, at the first import: a process runs on one database for its whole life (getDb refuses
// a DATABASE_URL of the other dialect later, see db/client.ts).
const tables = (databaseDialect() === "postgres" ? postgres : sqlite) as unknown as typeof sqlite;

/** The dialect the exported tables belong to. */
export const TABLES_DIALECT = databaseDialect();

/** The tables (see `defineTables` in db/tables.ts for what each holds). */
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
