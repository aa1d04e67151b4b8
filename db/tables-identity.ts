/**
 * The sign-in tables (docs/second-factors.md, docs/security.md), kept apart from db/tables.ts and
 * spread into its `defineTables`: people, their browser sessions, second factors (TOTP, passkeys),
 * recovery codes and password-reset links.
 */
import type { ColumnKit } from "./columns/sqlite";

/** The sign-in tables over the column kit `k`; every other table's user reference points at `users`. */
export function defineIdentityTables(k: ColumnKit) {
  const users = k.table("users", {
    id: k.id(),
    email: k.text("email").notNull().unique(),
    name: k.text("name").notNull(),
    passwordHash: k.text("password_hash").notNull(),
    isAdmin: k.boolean("is_admin").notNull().default(false),
    /** Set when an instance administrator disables the account: it counts as signed out from then on. */
    disabledAt: k.timestamp("disabled_at"),
    createdAt: k.createdAt(),
  });

  /**
   * A signed-in browser session. The JWT cookie carries only this id; every request looks the row up
   * (by primary key), so ending a row signs that browser out at once.
   */
  const sessions = k.table(
    "sessions",
    {
      id: k.id(),
      userId: k
        .text("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      createdAt: k.createdAt(),
      lastSeenAt: k.timestamp("last_seen_at").notNull(),
      expiresAt: k.timestamp("expires_at").notNull(),
      endedAt: k.timestamp("ended_at"),
      /** When the session's user last proved who they are (sign-in, or re-authentication before a sensitive act). */
      authenticatedAt: k.timestamp("authenticated_at"),
    },
    (t) => [k.index("sessions_user_idx").on(t.userId)],
  );

  /**
   * A user's second factor (docs/second-factors.md): a TOTP secret, sealed (`secret_enc`), counted only
   * once confirmed with a code; `last_step` is the last time step used, so no code counts twice.
   */
  const userFactors = k.table(
    "user_factors",
    {
      id: k.id(),
      userId: k
        .text("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      kind: k.enum("kind", ["totp", "passkey"]).notNull(),
      name: k.text("name").notNull(),
      secretEnc: k.text("secret_enc"),
      lastStep: k.integer("last_step"),
      confirmedAt: k.timestamp("confirmed_at"),
      lastUsedAt: k.timestamp("last_used_at"),
      createdAt: k.createdAt(),
    },
    (t) => [k.index("user_factors_user_idx").on(t.userId)],
  );

  /**
   * The WebAuthn credential of a passkey factor (docs/second-factors.md#passkeys), one per
   * `user_factors` row of kind `passkey`: its id and COSE public key (base64url; public, not sealed),
   * and the signature counter, which only goes up (a cloned authenticator shows as a counter going back).
   */
  const passkeyCredentials = k.table(
    "passkey_credentials",
    {
      factorId: k
        .text("factor_id")
        .primaryKey()
        .references(() => userFactors.id, { onDelete: "cascade" }),
      userId: k
        .text("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      credentialId: k.text("credential_id").notNull().unique(),
      publicKey: k.text("public_key").notNull(),
      counter: k.integer("counter").notNull().default(0),
      /** The authenticator's transports (`usb,internal,hybrid`…), comma-separated, a hint for the browser. */
      transports: k.text("transports").notNull().default(""),
      createdAt: k.createdAt(),
    },
    (t) => [k.index("passkey_credentials_user_idx").on(t.userId)],
  );

  /** Single-use recovery codes, shown once at enrolment; only their SHA-256 is stored. */
  const recoveryCodes = k.table(
    "recovery_codes",
    {
      id: k.id(),
      userId: k
        .text("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      codeHash: k.text("code_hash").notNull(),
      usedAt: k.timestamp("used_at"),
      createdAt: k.createdAt(),
    },
    (t) => [k.index("recovery_codes_user_idx").on(t.userId)],
  );

  /**
   * A one-time password-reset link (docs/security.md#password-reset): issued by an instance
   * administrator, or asked for by email when mail is set up. Only the token's SHA-256 is stored;
   * single use (`used_at`), one hour.
   */
  const passwordResets = k.table(
    "password_resets",
    {
      id: k.id(),
      userId: k
        .text("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      tokenHash: k.text("token_hash").notNull().unique(),
      /** The administrator who issued it; null when the user asked by email ("Forgot password?"). */
      issuedBy: k.text("issued_by").references(() => users.id, { onDelete: "set null" }),
      expiresAt: k.timestamp("expires_at").notNull(),
      usedAt: k.timestamp("used_at"),
      createdAt: k.createdAt(),
    },
    (t) => [k.index("password_resets_user_idx").on(t.userId)],
  );

  return { users, sessions, userFactors, passkeyCredentials, recoveryCodes, passwordResets };
}
