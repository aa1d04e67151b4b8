/** Users and their personal workspace. */
import { and, asc, count, eq, isNull, like, or, sql } from "drizzle-orm";
import type { Db } from "../client";
import { newId } from "../ids";
import { memberships, users, workspaces } from "../schema";
import { bumpGeneration } from "../generation";
import { gated, withTransaction } from "../transaction";
import { all, exec, one } from "../exec";

/** A user as the app sees it (never the password hash). */
export interface UserRecord {
  id: string;
  email: string;
  name: string;
  isAdmin: boolean;
}

/** Normalise an email for storage and look-up. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Create a user with a personal workspace they own. The first user of the instance becomes its
 * administrator; the check and insert run in one transaction so two racing sign-ups can't both win.
 * Returns null when the email is taken.
 */
export async function createUserWithWorkspace(
  db: Db,
  input: { email: string; name: string; passwordHash: string },
): Promise<UserRecord | null> {
  bumpGeneration();
  return await withTransaction(db, async (tx) => {
    const email = normaliseEmail(input.email);
    if (await one(tx.select({ id: users.id }).from(users).where(eq(users.email, email)))) return null;
    const isFirst = ((await one(tx.select({ n: count() }).from(users)))?.n ?? 0) === 0;
    const user = { id: newId(), email, name: input.name.trim(), passwordHash: input.passwordHash, isAdmin: isFirst };
    await exec(tx.insert(users).values(user));
    const workspaceId = newId();
    await exec(tx.insert(workspaces).values({ id: workspaceId, name: `${user.name}'s workspace`, personalOwnerId: user.id }));
    await exec(tx.insert(memberships).values({ workspaceId, userId: user.id, role: "owner" }));
    return { id: user.id, email, name: user.name, isAdmin: isFirst };
  });
}

/** Find a user and their password hash by email (sign-in). */
export async function getUserWithPasswordByEmail(db: Db, email: string) {
  return gated(db, async () => {
    return (
      (await one(
        db
          .select()
          .from(users)
          .where(eq(users.email, normaliseEmail(email))),
      )) ?? null
    );
  });
}

/** Find a user by id; a disabled account counts as not found (it is signed out everywhere). */
export async function getUserById(db: Db, id: string): Promise<UserRecord | null> {
  return gated(db, async () => {
    const row = await one(
      db
        .select({ id: users.id, email: users.email, name: users.name, isAdmin: users.isAdmin, disabledAt: users.disabledAt })
        .from(users)
        .where(eq(users.id, id)),
    );
    if (!row || row.disabledAt) return null;
    return { id: row.id, email: row.email, name: row.name, isAdmin: row.isAdmin };
  });
}

/** Find a user id by email (any state), or null. */
export async function getUserIdByEmail(db: Db, email: string): Promise<string | null> {
  return gated(db, async () => {
    return (
      (
        await one(
          db
            .select({ id: users.id })
            .from(users)
            .where(eq(users.email, normaliseEmail(email))),
        )
      )?.id ?? null
    );
  });
}

/** Users for instance administration, optionally filtered by a substring of name or email. */
export async function listUsers(db: Db, search?: string) {
  return gated(db, async () => {
    // Lower-cased on both sides: SQLite's like ignores ASCII case, Postgres's does not.
    const pattern = search ? `%${search.replace(/[%_\\]/g, "").toLowerCase()}%` : undefined;
    return await all(
      db
        .select({
          id: users.id,
          email: users.email,
          name: users.name,
          isAdmin: users.isAdmin,
          disabledAt: users.disabledAt,
          createdAt: users.createdAt,
        })
        .from(users)
        .where(pattern ? or(like(sql`lower(${users.email})`, pattern), like(sql`lower(${users.name})`, pattern)) : undefined)
        .orderBy(asc(users.email))
        .limit(500),
    );
  });
}

/** Make or remove an instance administrator; false when there is no such user. */
export async function setUserAdmin(db: Db, id: string, isAdmin: boolean): Promise<boolean> {
  return gated(db, async () => {
    bumpGeneration();
    return (await exec(db.update(users).set({ isAdmin }).where(eq(users.id, id)))) > 0;
  });
}

/** Disable (a date) or enable (null) an account; false when there is no such user. */
export async function setUserDisabled(db: Db, id: string, disabledAt: Date | null): Promise<boolean> {
  return gated(db, async () => {
    bumpGeneration();
    return (await exec(db.update(users).set({ disabledAt }).where(eq(users.id, id)))) > 0;
  });
}

/** How many enabled instance administrators exist. */
export async function countActiveAdmins(db: Db): Promise<number> {
  return gated(db, async () => {
    return (
      (
        await one(
          db
            .select({ n: count() })
            .from(users)
            .where(and(eq(users.isAdmin, true), isNull(users.disabledAt))),
        )
      )?.n ?? 0
    );
  });
}

/** Delete a user; their personal workspace, memberships, chats, settings and credentials cascade. */
export async function deleteUser(db: Db, id: string): Promise<boolean> {
  return gated(db, async () => {
    bumpGeneration();
    return (await exec(db.delete(users).where(eq(users.id, id)))) > 0;
  });
}

/** Whether any account exists yet. */
export async function hasAnyUser(db: Db): Promise<boolean> {
  return gated(db, async () => {
    return !!(await one(db.select({ id: users.id }).from(users).limit(1)));
  });
}

/** A user's password hash by id (password change), or null. */
export async function getPasswordHashById(db: Db, id: string): Promise<string | null> {
  return gated(db, async () => {
    return (await one(db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, id))))?.hash ?? null;
  });
}

/** Replace a user's password hash. */
export async function updatePasswordHash(db: Db, id: string, passwordHash: string): Promise<void> {
  return gated(db, async () => {
    await exec(db.update(users).set({ passwordHash }).where(eq(users.id, id)));
  });
}
