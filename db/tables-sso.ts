/**
 * The single sign-on tables (docs/sso.md), kept apart from db/tables.ts and spread into its
 * `defineTables`: OpenID Connect providers an administrator configured, and which provider
 * identity each user signed in with (with the claims of their latest sign-in, for "sync now").
 */
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import type { ColumnKit } from "./columns/sqlite";

/** A workspace a group of the provider's claim maps to, with the role its members get. */
export interface SsoWorkspaceMapping {
  group: string;
  workspaceId: string;
  role: "owner" | "admin" | "member";
}

/** How a provider's claim maps to roles: `claim` names the list (for example `groups`). */
export interface SsoClaimMapping {
  claim: string;
  adminGroups: string[];
  workspaces: SsoWorkspaceMapping[];
}

/** The SSO tables over the column kit `k`; `users` is the users table they point at. */
export function defineSsoTables(k: ColumnKit, users: { id: AnySQLiteColumn }) {
  /**
   * An OpenID Connect provider an instance administrator configured (providers from the environment
   * are not stored). `id` is the lower-cased name, so the callback is `/api/auth/callback/<id>`;
   * the client secret is sealed (`client_secret_enc`) and never answered.
   */
  const ssoProviders = k.table("sso_providers", {
    id: k.text("id").primaryKey(),
    label: k.text("label").notNull(),
    issuer: k.text("issuer").notNull(),
    clientId: k.text("client_id").notNull(),
    clientSecretEnc: k.text("client_secret_enc").notNull(),
    scopes: k.text("scopes").notNull(),
    allowedDomains: k.json("allowed_domains").$type<string[]>().notNull(),
    claimMapping: k.json("claim_mapping").$type<SsoClaimMapping | null>(),
    createdAt: k.createdAt(),
    updatedAt: k.updatedAt(),
  });

  /**
   * A user's identity at a provider (its `sub`), the link a later sign-in follows. `groups` holds the
   * mapped claim's values from the latest sign-in: an administrator's "sync now" re-applies them.
   */
  const ssoIdentities = k.table(
    "sso_identities",
    {
      providerId: k.text("provider_id").notNull(),
      subject: k.text("subject").notNull(),
      userId: k
        .text("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      groups: k.json("groups").$type<string[]>().notNull(),
      lastSignInAt: k.timestamp("last_sign_in_at").notNull(),
      createdAt: k.createdAt(),
    },
    (t) => [k.primaryKey({ columns: [t.providerId, t.subject] }), k.index("sso_identities_user_idx").on(t.userId)],
  );

  return { ssoProviders, ssoIdentities };
}
