/** Users and their personal workspace. */
import { eq, sql } from "drizzle-orm";
import type { Db } from "../client";
import { newId } from "../ids";
import { memberships, users, workspaces } from "../schema";

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

/** Find a user by id. */
export function getUserById(db: Db, id: string): UserRecord | null {
  return (
    db.select({ id: users.id, email: users.email, name: users.name, isAdmin: users.isAdmin }).from(users).where(eq(users.id, id)).get() ??
    null
  );
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
