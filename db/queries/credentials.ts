/**
 * Per-(user, server) credentials: OAuth tokens, client registration and discovery state, each an
 * encrypted envelope. Every query is scoped by both user and server (tokens never cross users or servers; docs/security.md).
 */
import { and, eq, inArray, like, ne } from "drizzle-orm";
import type { Db } from "../client";
import { serverCredentials } from "../schema";
import { bumpGeneration } from "../generation";
import { gated } from "../transaction";
import { all, exec, one } from "../exec";

/**
 * Kinds under this prefix are a person's tokens for everyone on a `shared` server ("Connect for
 * everyone"), stored apart from their own tokens for the same server (docs/workspaces.md).
 */
export const SHARED_KIND_PREFIX = "shared.";

/** One stored credential; `valueEnc` is an envelope from lib/crypto. */
export interface CredentialRow {
  valueEnc: string;
  expiresAt: Date | null;
}

/** The credential of this kind for (user, server), or null. */
export async function getCredential(db: Db, ref: { userId: string; serverId: string; kind: string }): Promise<CredentialRow | null> {
  return gated(db, async () => {
    const row = await one(
      db
        .select({ valueEnc: serverCredentials.valueEnc, expiresAt: serverCredentials.expiresAt })
        .from(serverCredentials)
        .where(
          and(eq(serverCredentials.userId, ref.userId), eq(serverCredentials.serverId, ref.serverId), eq(serverCredentials.kind, ref.kind)),
        ),
    );
    return row ?? null;
  });
}

/** Insert or replace the credential of this kind for (user, server). */
export async function putCredential(
  db: Db,
  ref: { userId: string; serverId: string; kind: string },
  value: { valueEnc: string; expiresAt: Date | null },
): Promise<void> {
  return gated(db, async () => {
    bumpGeneration();
    await exec(
      db
        .insert(serverCredentials)
        .values({ ...ref, valueEnc: value.valueEnc, expiresAt: value.expiresAt, updatedAt: new Date() })
        .onConflictDoUpdate({
          target: [serverCredentials.userId, serverCredentials.serverId, serverCredentials.kind],
          set: { valueEnc: value.valueEnc, expiresAt: value.expiresAt, updatedAt: new Date() },
        }),
    );
  });
}

/** Delete the given kinds for (user, server); every kind when `kinds` is omitted. */
export async function deleteCredentials(db: Db, ref: { userId: string; serverId: string; kinds?: string[] }): Promise<void> {
  return gated(db, async () => {
    bumpGeneration();
    const scope = and(eq(serverCredentials.userId, ref.userId), eq(serverCredentials.serverId, ref.serverId));
    await exec(db.delete(serverCredentials).where(ref.kinds ? and(scope, inArray(serverCredentials.kind, ref.kinds)) : scope));
  });
}

/**
 * Forget the shared slots ("Connect for everyone" tokens) of a server, except `keepUserId`'s: the
 * account a shared server uses changed or ended, so no other person's shared tokens may linger.
 */
export async function deleteSharedCredentials(
  db: Db,
  ref: { serverId: string; keepUserId?: string | null; onlyUserId?: string },
): Promise<void> {
  return gated(db, async () => {
    bumpGeneration();
    const where = [eq(serverCredentials.serverId, ref.serverId), like(serverCredentials.kind, `${SHARED_KIND_PREFIX}%`)];
    if (ref.keepUserId) where.push(ne(serverCredentials.userId, ref.keepUserId));
    if (ref.onlyUserId) where.push(eq(serverCredentials.userId, ref.onlyUserId));
    await exec(db.delete(serverCredentials).where(and(...where)));
  });
}

/** Every user's credential of this kind for a server (for re-binding per-member values when its address changes). */
export async function listServerCredentials(
  db: Db,
  ref: { serverId: string; kind: string },
): Promise<Array<CredentialRow & { userId: string }>> {
  return gated(db, async () => {
    return await all(
      db
        .select({ userId: serverCredentials.userId, valueEnc: serverCredentials.valueEnc, expiresAt: serverCredentials.expiresAt })
        .from(serverCredentials)
        .where(and(eq(serverCredentials.serverId, ref.serverId), eq(serverCredentials.kind, ref.kind))),
    );
  });
}
