/**
 * Per-(user, server) credentials: OAuth tokens, client registration and discovery state, each an
 * encrypted envelope. Every query is scoped by both user and server (tokens never cross users or servers; docs/security.md).
 */
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../client";
import { serverCredentials } from "../schema";
import { bumpGeneration } from "../generation";

/** One stored credential; `valueEnc` is an envelope from lib/crypto. */
export interface CredentialRow {
  valueEnc: string;
  expiresAt: Date | null;
}

/** The credential of this kind for (user, server), or null. */
export function getCredential(db: Db, ref: { userId: string; serverId: string; kind: string }): CredentialRow | null {
  const row = db
    .select({ valueEnc: serverCredentials.valueEnc, expiresAt: serverCredentials.expiresAt })
    .from(serverCredentials)
    .where(
      and(eq(serverCredentials.userId, ref.userId), eq(serverCredentials.serverId, ref.serverId), eq(serverCredentials.kind, ref.kind)),
    )
    .get();
  return row ?? null;
}

/** Insert or replace the credential of this kind for (user, server). */
export function putCredential(
  db: Db,
  ref: { userId: string; serverId: string; kind: string },
  value: { valueEnc: string; expiresAt: Date | null },
): void {
  bumpGeneration();
  db.insert(serverCredentials)
    .values({ ...ref, valueEnc: value.valueEnc, expiresAt: value.expiresAt, updatedAt: new Date() })
    .onConflictDoUpdate({
      target: [serverCredentials.userId, serverCredentials.serverId, serverCredentials.kind],
      set: { valueEnc: value.valueEnc, expiresAt: value.expiresAt, updatedAt: new Date() },
    })
    .run();
}

/** Delete the given kinds for (user, server); every kind when `kinds` is omitted. */
export function deleteCredentials(db: Db, ref: { userId: string; serverId: string; kinds?: string[] }): void {
  bumpGeneration();
  const scope = and(eq(serverCredentials.userId, ref.userId), eq(serverCredentials.serverId, ref.serverId));
  db.delete(serverCredentials)
    .where(ref.kinds ? and(scope, inArray(serverCredentials.kind, ref.kinds)) : scope)
    .run();
}
