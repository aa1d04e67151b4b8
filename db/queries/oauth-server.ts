/**
 * The authorization server's records (db/tables-oauth-server.ts): what lib/oauth-server/adapter.ts
 * stores for oidc-provider. Every key here is already a hash; payloads are sealed by the caller.
 */
import { and, desc, eq, inArray, lt } from "drizzle-orm";
import type { Db } from "../client";
import { all, exec, one } from "../exec";
import { oauthServerRecords } from "../schema";
import { gated } from "../transaction";

/** A stored record (sealed payload, hashed keys). */
export type OAuthServerRecord = typeof oauthServerRecords.$inferSelect;

/** What a record is stored with. */
export interface OAuthServerRecordInput {
  keyHash: string;
  model: string;
  payloadEnc: string;
  grantId: string | null;
  uidHash: string | null;
  userCodeHash: string | null;
  userId: string | null;
  clientId: string | null;
  expiresAt: Date | null;
}

/** Insert a record or replace the one with its key (oidc-provider's `upsert`). */
export async function upsertOAuthServerRecord(db: Db, input: OAuthServerRecordInput): Promise<void> {
  return gated(db, async () => {
    const { keyHash, ...rest } = input;
    await exec(
      db
        .insert(oauthServerRecords)
        .values(input)
        .onConflictDoUpdate({ target: oauthServerRecords.keyHash, set: { ...rest, consumedAt: null } }),
    );
  });
}

/** The record with this key hash, or null. */
export async function getOAuthServerRecord(db: Db, keyHash: string): Promise<OAuthServerRecord | null> {
  return gated(db, async () => (await one(db.select().from(oauthServerRecords).where(eq(oauthServerRecords.keyHash, keyHash)))) ?? null);
}

/** The record of `model` with this uid hash (or user-code hash), or null. */
export async function findOAuthServerRecordBy(
  db: Db,
  model: string,
  by: { uidHash: string } | { userCodeHash: string },
): Promise<OAuthServerRecord | null> {
  const column = "uidHash" in by ? eq(oauthServerRecords.uidHash, by.uidHash) : eq(oauthServerRecords.userCodeHash, by.userCodeHash);
  return gated(
    db,
    async () =>
      (await one(
        db
          .select()
          .from(oauthServerRecords)
          .where(and(eq(oauthServerRecords.model, model), column)),
      )) ?? null,
  );
}

/** Mark a record consumed (a code exchanged, a refresh token rotated). */
export async function consumeOAuthServerRecord(db: Db, keyHash: string, now: Date): Promise<void> {
  return gated(db, async () => {
    await exec(db.update(oauthServerRecords).set({ consumedAt: now }).where(eq(oauthServerRecords.keyHash, keyHash)));
  });
}

/** Keep a record that expires until at least `until` (a registered client while its grants last); one that never expires stays so. */
export async function extendOAuthServerRecord(db: Db, keyHash: string, until: Date): Promise<void> {
  return gated(db, async () => {
    await exec(
      db
        .update(oauthServerRecords)
        .set({ expiresAt: until })
        .where(and(eq(oauthServerRecords.keyHash, keyHash), lt(oauthServerRecords.expiresAt, until))),
    );
  });
}

/** Delete one record. */
export async function deleteOAuthServerRecord(db: Db, keyHash: string): Promise<void> {
  return gated(db, async () => {
    await exec(db.delete(oauthServerRecords).where(eq(oauthServerRecords.keyHash, keyHash)));
  });
}

/** Delete every record of a grant (the grant itself included): its codes and every access and refresh token. */
export async function deleteOAuthServerGrant(db: Db, grantId: string): Promise<number> {
  return gated(db, async () => await exec(db.delete(oauthServerRecords).where(eq(oauthServerRecords.grantId, grantId))));
}

/** Note a use of a grant (the account page's "last used"). */
export async function touchOAuthServerGrant(db: Db, grantKeyHash: string, now: Date): Promise<void> {
  return gated(db, async () => {
    await exec(db.update(oauthServerRecords).set({ lastUsedAt: now }).where(eq(oauthServerRecords.keyHash, grantKeyHash)));
  });
}

/** A user's grant records, newest first (sealed payloads: the caller opens them). */
export async function listOAuthServerGrantsOfUser(db: Db, userId: string): Promise<OAuthServerRecord[]> {
  return gated(db, async () =>
    all(
      db
        .select()
        .from(oauthServerRecords)
        .where(and(eq(oauthServerRecords.userId, userId), eq(oauthServerRecords.model, "Grant")))
        .orderBy(desc(oauthServerRecords.createdAt)),
    ),
  );
}

/** Client records by their key hashes (for the names on the account page). */
export async function getOAuthServerRecords(db: Db, keyHashes: string[]): Promise<OAuthServerRecord[]> {
  if (keyHashes.length === 0) return [];
  return gated(db, async () => all(db.select().from(oauthServerRecords).where(inArray(oauthServerRecords.keyHash, keyHashes))));
}
