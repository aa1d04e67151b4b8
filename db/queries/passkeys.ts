/**
 * Passkeys (WebAuthn credentials) of the `passkey` second factors (docs/second-factors.md#passkeys).
 * Each is a confirmed `user_factors` row, so the factor list, the policies and removal count it like
 * any factor, plus its `passkey_credentials` row with the public key and the signature counter.
 */
import { and, eq, lt } from "drizzle-orm";
import type { Db } from "../client";
import { newId } from "../ids";
import { passkeyCredentials, userFactors, users } from "../schema";
import { gated, stepTransaction, write } from "../transaction";
import { all, exec, one } from "../exec";

/** A stored passkey as verification needs it (the public key is public: not sealed). */
export interface StoredPasskey {
  factorId: string;
  userId: string;
  email: string;
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
}

/** What a verified registration stores. */
export interface NewPasskey {
  name: string;
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
}

/** Store a verified passkey as a confirmed factor of the user; returns the factor's id. */
export async function createPasskey(db: Db, userId: string, passkey: NewPasskey, now: Date): Promise<string> {
  return gated(db, async () => {
    const factorId = newId();
    await stepTransaction(db, function* (tx) {
      yield* write(tx.insert(userFactors).values({ id: factorId, userId, kind: "passkey", name: passkey.name, confirmedAt: now }));
      yield* write(
        tx.insert(passkeyCredentials).values({
          factorId,
          userId,
          credentialId: passkey.credentialId,
          publicKey: passkey.publicKey,
          counter: passkey.counter,
          transports: passkey.transports.join(","),
        }),
      );
    });
    return factorId;
  });
}

/** The passkey with this credential id (any user's: the caller checks whose it may be), or null. */
export async function getPasskeyByCredentialId(db: Db, credentialId: string): Promise<StoredPasskey | null> {
  return gated(db, async () => {
    const row = await one(
      db
        .select({
          factorId: passkeyCredentials.factorId,
          userId: passkeyCredentials.userId,
          email: users.email,
          credentialId: passkeyCredentials.credentialId,
          publicKey: passkeyCredentials.publicKey,
          counter: passkeyCredentials.counter,
          transports: passkeyCredentials.transports,
        })
        .from(passkeyCredentials)
        .innerJoin(users, eq(users.id, passkeyCredentials.userId))
        .where(eq(passkeyCredentials.credentialId, credentialId)),
    );
    return row ? { ...row, transports: row.transports ? row.transports.split(",") : [] } : null;
  });
}

/** The credential ids and transports of the user's passkeys (to exclude at registration, to allow at re-authentication). */
export async function listPasskeyDescriptors(db: Db, userId: string): Promise<{ id: string; transports: string[] }[]> {
  return gated(db, async () => {
    return (
      await all(
        db
          .select({ id: passkeyCredentials.credentialId, transports: passkeyCredentials.transports })
          .from(passkeyCredentials)
          .where(eq(passkeyCredentials.userId, userId)),
      )
    ).map((row) => ({ id: row.id, transports: row.transports ? row.transports.split(",") : [] }));
  });
}

/**
 * Record a use of the passkey with the counter its authenticator reported: only when the counter
 * went up and no other request recorded it first (authenticators that keep no counter report 0
 * always; then the single-use challenge alone stops a replay). False otherwise.
 */
export async function spendPasskeyCounter(db: Db, factorId: string, next: number, now: Date): Promise<boolean> {
  return gated(db, async () => {
    const changed = await exec(
      db
        .update(passkeyCredentials)
        .set({ counter: next })
        .where(
          and(
            eq(passkeyCredentials.factorId, factorId),
            next === 0 ? eq(passkeyCredentials.counter, 0) : lt(passkeyCredentials.counter, next),
          ),
        ),
    );
    if (changed !== 1) return false;
    await exec(db.update(userFactors).set({ lastUsedAt: now }).where(eq(userFactors.id, factorId)));
    return true;
  });
}
