/** Single sign-on: the providers an administrator configured, and users' identities at providers. */
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../client";
import { ssoIdentities, ssoProviders } from "../schema";
import type { SsoClaimMapping } from "../tables-sso";
import { gated } from "../transaction";
import { all, exec, one } from "../exec";

export type { SsoClaimMapping, SsoWorkspaceMapping } from "../tables-sso";

/** A stored provider row; `clientSecretEnc` is the sealed secret (db/secrets.ts), never answered. */
export type SsoProviderRow = typeof ssoProviders.$inferSelect;

/** Every admin-configured provider, by id. */
export async function listSsoProviderRows(db: Db): Promise<SsoProviderRow[]> {
  return gated(db, async () => {
    return await all(db.select().from(ssoProviders).orderBy(ssoProviders.id));
  });
}

/** One admin-configured provider, or null. */
export async function getSsoProviderRow(db: Db, id: string): Promise<SsoProviderRow | null> {
  return gated(db, async () => {
    return (await one(db.select().from(ssoProviders).where(eq(ssoProviders.id, id)))) ?? null;
  });
}

/** Insert a provider; false when the id is taken. */
export async function insertSsoProvider(db: Db, row: Omit<SsoProviderRow, "createdAt" | "updatedAt">): Promise<boolean> {
  return gated(db, async () => {
    return (await exec(db.insert(ssoProviders).values(row).onConflictDoNothing())) > 0;
  });
}

/** Update a provider's settings (the secret only when given); false when there is no such provider. */
export async function updateSsoProvider(
  db: Db,
  id: string,
  patch: Partial<Omit<SsoProviderRow, "id" | "createdAt" | "updatedAt">>,
): Promise<boolean> {
  return gated(db, async () => {
    return (
      (await exec(
        db
          .update(ssoProviders)
          .set({ ...patch, updatedAt: new Date() })
          .where(eq(ssoProviders.id, id)),
      )) > 0
    );
  });
}

/** Delete a provider; its users keep their accounts (and their identities, should it come back). */
export async function deleteSsoProvider(db: Db, id: string): Promise<boolean> {
  return gated(db, async () => {
    return (await exec(db.delete(ssoProviders).where(eq(ssoProviders.id, id)))) > 0;
  });
}

/** The user linked to a provider's subject, or null. */
export async function getSsoIdentityUser(db: Db, providerId: string, subject: string): Promise<string | null> {
  return gated(db, async () => {
    return (
      (
        await one(
          db
            .select({ userId: ssoIdentities.userId })
            .from(ssoIdentities)
            .where(and(eq(ssoIdentities.providerId, providerId), eq(ssoIdentities.subject, subject))),
        )
      )?.userId ?? null
    );
  });
}

/** Link a subject to a user (or refresh the link) with the mapped claim's values of this sign-in. */
export async function saveSsoIdentity(
  db: Db,
  input: { providerId: string; subject: string; userId: string; groups: string[] },
  now = new Date(),
): Promise<void> {
  return gated(db, async () => {
    await exec(
      db
        .insert(ssoIdentities)
        .values({ ...input, lastSignInAt: now })
        .onConflictDoUpdate({
          target: [ssoIdentities.providerId, ssoIdentities.subject],
          set: { userId: input.userId, groups: input.groups, lastSignInAt: now },
        }),
    );
  });
}

/** A user's identities, latest sign-in first. */
export async function listSsoIdentitiesOfUser(db: Db, userId: string) {
  return gated(db, async () => {
    return (
      await all(
        db
          .select({ providerId: ssoIdentities.providerId, groups: ssoIdentities.groups, lastSignInAt: ssoIdentities.lastSignInAt })
          .from(ssoIdentities)
          .where(eq(ssoIdentities.userId, userId)),
      )
    ).sort((a, b) => b.lastSignInAt.getTime() - a.lastSignInAt.getTime());
  });
}

/** The providers each of these users signed in with (for the admin users table). */
export async function ssoProvidersByUser(db: Db, userIds: string[]): Promise<Map<string, string[]>> {
  return gated(db, async () => {
    const found = new Map<string, string[]>();
    if (!userIds.length) return found;
    const rows = await all(
      db
        .select({ userId: ssoIdentities.userId, providerId: ssoIdentities.providerId })
        .from(ssoIdentities)
        .where(inArray(ssoIdentities.userId, userIds)),
    );
    for (const row of rows) found.set(row.userId, [...(found.get(row.userId) ?? []), row.providerId]);
    return found;
  });
}

/** Re-export for callers typing a mapping. */
export type ClaimMapping = SsoClaimMapping;
