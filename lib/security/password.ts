/**
 * Password hashing and the rules a new password must pass. New hashes are argon2id at OWASP's
 * parameters (node:crypto, m=19 MiB, t=2, p=1), stored self-describing in the PHC string format
 * `$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`. Older `scrypt$N$r$p$salt$hash` hashes still verify
 * and, like an argon2id hash below today's parameters, are re-hashed at the next sign-in (`needsRehash`).
 */
import { argon2 as argon2Cb, randomBytes, scrypt as scryptCb, type ScryptOptions, timingSafeEqual } from "node:crypto";
import { passwordStrength } from "../domain/password-strength";

/** Today's argon2id parameters (OWASP Password Storage Cheat Sheet: 19 MiB, 2 passes, 1 lane). */
export const ARGON2_PARAMS = { memory: 19_456, passes: 2, parallelism: 1 } as const;
const KEY_LENGTH = 32;
// A stored hash is ours, but a corrupted one must not make one sign-in allocate gigabytes.
const MAX_MEMORY_KIB = 1024 * 1024;

/** Shortest password accepted for a new password. */
export const MIN_PASSWORD_LENGTH = 10;

type Argon2Params = { memory: number; passes: number; parallelism: number };

function argon2id(password: string, salt: Buffer, params: Argon2Params): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    argon2Cb("argon2id", { message: password, nonce: salt, tagLength: KEY_LENGTH, ...params }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

function scrypt(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password, salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** Hash a password with a fresh random salt (argon2id, `ARGON2_PARAMS`). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await argon2id(password, salt, ARGON2_PARAMS);
  const { memory, passes, parallelism } = ARGON2_PARAMS;
  return `$argon2id$v=19$m=${memory},t=${passes},p=${parallelism}$${b64(salt)}$${b64(key)}`;
}

// PHC strings use unpadded standard base64.
const b64 = (bytes: Buffer) => bytes.toString("base64").replace(/=+$/, "");

type Parsed =
  | { scheme: "argon2id"; params: Argon2Params; salt: Buffer; key: Buffer }
  | { scheme: "scrypt"; options: ScryptOptions; salt: Buffer; key: Buffer };

const ARGON2_FORMAT = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

// A stored hash's scheme and parameters, or null when it is not one we wrote.
function parse(stored: string): Parsed | null {
  const argon = ARGON2_FORMAT.exec(stored);
  if (argon) {
    const [memory, passes, parallelism] = [Number(argon[1]), Number(argon[2]), Number(argon[3])];
    if (memory > MAX_MEMORY_KIB || passes < 1 || parallelism < 1 || memory < 8 * parallelism) return null;
    return {
      scheme: "argon2id",
      params: { memory, passes, parallelism },
      salt: Buffer.from(argon[4], "base64"),
      key: Buffer.from(argon[5], "base64"),
    };
  }
  const [scheme, n, r, p, saltText, keyText] = stored.split("$");
  if (scheme !== "scrypt" || !saltText || !keyText) return null;
  const options = { N: Number(n), r: Number(r), p: Number(p) };
  // Node refuses scrypt above `maxmem` (32 MiB by default); 128·N·r bytes are needed, plus headroom.
  const needed = 128 * options.N * options.r * options.p;
  if (!Number.isInteger(needed) || needed <= 0 || needed > MAX_MEMORY_KIB * 1024) return null;
  return {
    scheme: "scrypt",
    options: { ...options, maxmem: needed + 1024 * 1024 },
    salt: Buffer.from(saltText, "base64"),
    key: Buffer.from(keyText, "base64"),
  };
}

/** Check a password against a stored hash (either scheme) in constant time; malformed hashes never verify. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed || parsed.key.length === 0) return false;
  const actual =
    parsed.scheme === "argon2id"
      ? await argon2id(password, parsed.salt, parsed.params)
      : await scrypt(password, parsed.salt, parsed.key.length, parsed.options);
  return actual.length === parsed.key.length && timingSafeEqual(actual, parsed.key);
}

/** Whether a stored hash is below today's scheme or parameters: re-hash it once its password is proven. */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  if (parsed?.scheme !== "argon2id") return true;
  const { memory, passes, parallelism } = parsed.params;
  return memory < ARGON2_PARAMS.memory || passes < ARGON2_PARAMS.passes || parallelism !== ARGON2_PARAMS.parallelism;
}

/** Why a new password is refused: its error code and what to do, or null when it is acceptable. */
export interface PasswordRefusal {
  code: "auth.weak_password" | "auth.breached_password";
  message: string;
}

/**
 * Check a new password: length, then the list of common and breached passwords shipped with the app
 * (`@zxcvbn-ts/language-common`, no network), then a guessability score of at least 2 of 4.
 * `userInputs` (email, name) count as guessable words.
 */
export function passwordRefusal(password: string, userInputs: string[] = []): PasswordRefusal | null {
  if (password.length < MIN_PASSWORD_LENGTH)
    return { code: "auth.weak_password", message: `Use at least ${MIN_PASSWORD_LENGTH} characters.` };
  if (password.length > 512) return { code: "auth.weak_password", message: "Use at most 512 characters." };
  if (new Set(password).size < 4) return { code: "auth.weak_password", message: "Use a less repetitive password." };
  const strength = passwordStrength(password, userInputs);
  if (strength.common)
    return { code: "auth.breached_password", message: "This password is on a list of common or breached passwords; choose another." };
  if (strength.score < 2) return { code: "auth.weak_password", message: `This password is too easy to guess. ${strength.hint}`.trim() };
  return null;
}
