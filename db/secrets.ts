/**
 * Secrets at rest: the one module that encrypts and decrypts them (docs/security.md#secrets-at-rest).
 * Each value is an AES-256-GCM envelope (lib/crypto.ts) under the instance key (db/key-check.ts),
 * or under the key a store was built with (the OAuth store's). It sits in db/ so that the queries
 * and the domains above them use the same envelope without an upward import.
 */
import { decrypt, encrypt, type SecretKey } from "../lib/crypto";
import { instanceKey } from "./key-check";

/** Encrypt one secret for storage. */
export function sealSecret(plaintext: string, key: SecretKey = instanceKey()): string {
  return encrypt(plaintext, key);
}

/** Decrypt one stored secret; a wrong key or an altered envelope throws. */
export function openSecret(envelope: string, key: SecretKey = instanceKey()): string {
  return decrypt(envelope, key);
}

/** Encrypt a JSON value (a bag of secrets) for storage. */
export function sealJson(value: unknown, key: SecretKey = instanceKey()): string {
  return encrypt(JSON.stringify(value), key);
}

/** Decrypt a stored JSON value. */
export function openJson<T>(envelope: string, key: SecretKey = instanceKey()): T {
  return JSON.parse(decrypt(envelope, key)) as T;
}
