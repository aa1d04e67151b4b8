/**
 * Recovery codes: ten single-use codes shown once when a second factor is enrolled, for the day the
 * authenticator is lost. Each carries 50 random bits; only its SHA-256 is stored (like invitation
 * tokens), so a database leak hands out no working code.
 */
import { createHash, randomInt } from "node:crypto";

/** How many codes an enrolment issues. */
export const RECOVERY_CODE_COUNT = 10;

// Crockford-style alphabet without look-alikes (0/O, 1/I/L), so a code copied from paper types right.
const ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz";

function randomGroup(length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

/** Ten new codes in the `xxxxx-xxxxx` form the user writes down. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => `${randomGroup(5)}-${randomGroup(5)}`);
}

/** Whether `input` has the shape of a recovery code (not a 6-digit TOTP code). */
export function looksLikeRecoveryCode(input: string): boolean {
  return /^[a-z0-9]{5}-?[a-z0-9]{5}$/i.test(input.trim());
}

/** The stored form of a code: SHA-256 of the code lower-cased, without spaces or the dash. */
export function hashRecoveryCode(code: string): string {
  const normal = code.trim().toLowerCase().replace(/[\s-]/g, "");
  return createHash("sha256").update(normal).digest("hex");
}
