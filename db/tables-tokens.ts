/**
 * Personal access tokens (docs/personal-tokens.md): a secret a user makes on the account page for
 * one workspace and some scopes, for clients and scripts that cannot share the browser's session.
 * Only the token's SHA-256 is stored (`token_hash`, looked up by its unique index); the secret is
 * shown once at creation. Merged into db/tables.ts like the other table groups.
 */
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import type { ColumnKit } from "./columns/sqlite";

/** The tables of db/tables.ts a token refers to. */
interface TokenRefs {
  users: { id: AnySQLiteColumn };
  workspaces: { id: AnySQLiteColumn };
}

/** The personal-access-token table over the column kit `k`. */
export function definePersonalTokenTables(k: ColumnKit, refs: TokenRefs) {
  /**
   * One token: its owner and workspace (deleting either deletes it), a name, the scopes as a
   * space-separated list (`mcp api:read api:write`), an expiry (always set: docs/personal-tokens.md),
   * `revoked_at` once revoked, and the first characters of the secret to tell tokens apart.
   */
  const personalTokens = k.table(
    "personal_tokens",
    {
      id: k.id(),
      userId: k
        .text("user_id")
        .notNull()
        .references(() => refs.users.id, { onDelete: "cascade" }),
      workspaceId: k
        .text("workspace_id")
        .notNull()
        .references(() => refs.workspaces.id, { onDelete: "cascade" }),
      name: k.text("name").notNull(),
      scopes: k.text("scopes").notNull(),
      tokenHash: k.text("token_hash").notNull().unique(),
      /** `sbp_` and the secret's next 4 characters: enough to recognise a token in the list, too few to guess it. */
      hint: k.text("hint").notNull(),
      expiresAt: k.timestamp("expires_at").notNull(),
      lastUsedAt: k.timestamp("last_used_at"),
      revokedAt: k.timestamp("revoked_at"),
      createdAt: k.createdAt(),
    },
    (t) => [k.index("personal_tokens_user_idx").on(t.userId)],
  );

  return { personalTokens };
}
