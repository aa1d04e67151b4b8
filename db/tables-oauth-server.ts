/**
 * Switchboard as an OAuth authorization server (docs/gateway.md#the-authorization-server): every
 * record oidc-provider keeps (clients, grants, codes, access and refresh tokens, interactions,
 * sessions) is one row here, so any replica serves any step of a flow. A record is found by the
 * SHA-256 of its model and id: codes and tokens are their own ids, so none is stored in clear. The
 * payload is sealed (db/secrets.ts), since a client's secret lives in it. Merged into db/tables.ts
 * like the other groups.
 */
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import type { ColumnKit } from "./columns/sqlite";

/** The tables of db/tables.ts a record refers to. */
interface OAuthServerRefs {
  users: { id: AnySQLiteColumn };
}

/** The authorization server's record table over the column kit `k`. */
export function defineOAuthServerTables(k: ColumnKit, refs: OAuthServerRefs) {
  /**
   * One oidc-provider record: `key_hash` is the SHA-256 of `<model>\0<id>`; `grant_id` ties tokens
   * and codes to their grant (revoking a grant deletes them all); `uid_hash` and `user_code_hash`
   * serve the adapter's `findByUid` and `findByUserCode`; `user_id` is the account a grant or token
   * is for (deleting the user deletes them); `client_id` and `last_used_at` are for the account
   * page's connected clients; `expires_at` null means it does not expire on its own.
   */
  const oauthServerRecords = k.table(
    "oauth_server_records",
    {
      keyHash: k.text("key_hash").primaryKey(),
      model: k.text("model").notNull(),
      payloadEnc: k.text("payload_enc").notNull(),
      grantId: k.text("grant_id"),
      uidHash: k.text("uid_hash"),
      userCodeHash: k.text("user_code_hash"),
      userId: k.text("user_id").references(() => refs.users.id, { onDelete: "cascade" }),
      clientId: k.text("client_id"),
      expiresAt: k.timestamp("expires_at"),
      consumedAt: k.timestamp("consumed_at"),
      lastUsedAt: k.timestamp("last_used_at"),
      createdAt: k.createdAt(),
    },
    (t) => [
      k.index("oauth_server_records_grant_idx").on(t.grantId),
      k.index("oauth_server_records_uid_idx").on(t.uidHash),
      k.index("oauth_server_records_user_code_idx").on(t.userCodeHash),
      k.index("oauth_server_records_user_idx").on(t.userId, t.model),
      k.index("oauth_server_records_expiry_idx").on(t.expiresAt),
    ],
  );
  return { oauthServerRecords };
}
