/**
 * TOTP codes (RFC 6238: SHA-1, 6 digits, 30 s) through otplib: a new secret, the `otpauth://` URI an
 * authenticator app reads, and checking a code. Pure apart from the clock the caller passes.
 */
import { generateSecret, generateURI, verify } from "otplib";

/** The issuer authenticator apps show beside the account. */
const ISSUER = "Switchboard";

/** A new random secret (160 bits, Base32). */
export function newTotpSecret(): string {
  return generateSecret();
}

/** The `otpauth://totp/…` URI for an authenticator app (as a QR code or typed in). */
export function totpUri(email: string, secret: string): string {
  return generateURI({ issuer: ISSUER, label: email, secret });
}

/**
 * The time step of `code` when it is right for `secret` at `now` (one step of clock drift either
 * way) and later than `afterStep`, else null: a code already used never counts again.
 */
export async function checkTotpCode(secret: string, code: string, afterStep: number | null, now = new Date()): Promise<number | null> {
  const token = code.replace(/\s+/g, "");
  if (!/^\d{6}$/.test(token)) return null;
  const result = await verify({
    secret,
    token,
    epoch: Math.floor(now.getTime() / 1000),
    epochTolerance: 30,
    ...(afterStep !== null ? { afterTimeStep: afterStep } : {}),
  }).catch(() => null);
  return result?.valid && "timeStep" in result ? result.timeStep : null;
}
