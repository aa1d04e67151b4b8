/** Users and their personal workspace. */
import { asc, eq, like, or, sql } from "drizzle-orm";
import type { Db } from "../client";
import { newId } from "../ids";
import { memberships, users, workspaces } from "../schema";
import { bumpGeneration } from "../generation";

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
export function createUserWithWorkspace(db: Db, input: { email: string; name: string; passwordHash: string }): UserRecord | null {
  bumpGeneration();
  return db.transaction((tx) => {
    const email = normaliseEmail(input.email);
    if (tx.select({ id: users.id }).from(users).where(eq(users.email, email)).get()) return null;
    const isFirst = (tx.select({ n: sql<number>`count(*)` }).from(users).get()?.n ?? 0) === 0;
    const user = { id: newId(), email, name: input.name.trim(), passwordHash: input.passwordHash, isAdmin: isFirst };
    tx.insert(users).values(user).run();
    const workspaceId = newId();
    tx.insert(workspaces)
      .values({ id: workspaceId, name: `${user.name}'s workspace`, personalOwnerId: user.id })
      .run();
    tx.insert(memberships).values({ workspaceId, userId: user.id, role: "owner" }).run();
    return { id: user.id, email, name: user.name, isAdmin: isFirst };
  });
}

/** Find a user and their password hash by email (sign-in). */
export function getUserWithPasswordByEmail(db: Db, email: string) {
  return (
    db
      .select()
      .from(users)
      .where(eq(users.email, normaliseEmail(email)))
      .get() ?? null
  );
}

/** Find a user by id; a disabled account counts as not found (it is signed out everywhere). */
export function getUserById(db: Db, id: string): UserRecord | null {
  const row = db
    .select({ id: users.id, email: users.email, name: users.name, isAdmin: users.isAdmin, disabledAt: users.disabledAt })
    .from(users)
    .where(eq(users.id, id))
    .get();
  if (!row || row.disabledAt) return null;
  return { id: row.id, email: row.email, name: row.name, isAdmin: row.isAdmin };
}

/** Find a user id by email (any state), or null. */
export function getUserIdByEmail(db: Db, email: string): string | null {
  return (
    db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, normaliseEmail(email)))
      .get()?.id ?? null
  );
}

/** Users for instance administration, optionally filtered by a substring of name or email. */
export function listUsers(db: Db, search?: string) {
  const pattern = search ? `%${search.replace(/[%_\\]/g, "")}%` : undefined;
  return db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      isAdmin: users.isAdmin,
      disabledAt: users.disabledAt,
      createdAt: users.createdAt,
    })
    .from(users)
    .where(pattern ? or(like(users.email, pattern), like(users.name, pattern)) : undefined)
    .orderBy(asc(users.email))
    .limit(500)
    .all();
}

/** Make or remove an instance administrator; false when there is no such user. */
export function setUserAdmin(db: Db, id: string, isAdmin: boolean): boolean {
  bumpGeneration();
  return db.update(users).set({ isAdmin }).where(eq(users.id, id)).run().changes > 0;
}

/** Disable (a date) or enable (null) an account; false when there is no such user. */
export function setUserDisabled(db: Db, id: string, disabledAt: Date | null): boolean {
  bumpGeneration();
  return db.update(users).set({ disabledAt }).where(eq(users.id, id)).run().changes > 0;
}

/** How many enabled instance administrators exist. */
export function countActiveAdmins(db: Db): number {
  return db.select({ n: sql<number>`count(*)` }).from(users).where(sql`${users.isAdmin} = 1 and ${users.disabledAt} is null`).get()?.n ?? 0;
}

/** Delete a user; their personal workspace, memberships, chats, settings and credentials cascade. */
export function deleteUser(db: Db, id: string): boolean {
  bumpGeneration();
  return db.delete(users).where(eq(users.id, id)).run().changes > 0;
}

/** Whether any account exists yet. */
export function hasAnyUser(db: Db): boolean {
  return !!db.select({ id: users.id }).from(users).limit(1).get();
}

/** A user's password hash by id (password change), or null. */
export function getPasswordHashById(db: Db, id: string): string | null {
  return db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, id)).get()?.hash ?? null;
}

/** Replace a user's password hash. */
export function updatePasswordHash(db: Db, id: string, passwordHash: string): void {
  db.update(users).set({ passwordHash }).where(eq(users.id, id)).run();
}
