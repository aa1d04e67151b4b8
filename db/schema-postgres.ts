/**
 * The Postgres tables: the shared definitions of db/schema.ts built with the Postgres column kit
 * (docs/database.md). drizzle-kit reads this module for `drizzle/postgres/` (drizzle.postgres.config.ts).
 */
import type { MakeColumnConfig } from "drizzle-orm";
import type { PgColumn, PgTableWithColumns } from "drizzle-orm/pg-core";
import type { SQLiteTableWithColumns } from "drizzle-orm/sqlite-core";
import { postgresColumns } from "./columns/postgres";
import type { ColumnKit } from "./columns/sqlite";
import { defineTables } from "./tables";

type SqliteTables = ReturnType<typeof defineTables>;

/** A SQLite table's Postgres twin: same name, same columns, same row types (what each column reads and takes). */
type AsPostgres<T> =
  T extends SQLiteTableWithColumns<infer C>
    ? PgTableWithColumns<{
        name: C["name"];
        schema: undefined;
        dialect: "pg";
        columns: { [K in keyof C["columns"]]: PgColumn<MakeColumnConfig<C["columns"][K]["_"], C["name"]>> };
      }>
    : never;

/** Every table for Postgres. */
export type PostgresTables = { [K in keyof SqliteTables]: AsPostgres<SqliteTables[K]> };

// The definitions are typed against the SQLite kit, whose call shapes the Postgres kit mirrors
// (`satisfies` there); what they build here are pg-core tables, hence the casts. The parity test
// (tests/integration/db-schema-parity.test.ts) checks the result table by table.
const tables = defineTables(postgresColumns as unknown as ColumnKit) as unknown as PostgresTables;

/** The Postgres tables (see `defineTables` in db/tables.ts for what each holds). */
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
