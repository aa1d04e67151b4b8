/**
 * Secrets at rest: AES-256-GCM envelopes under the instance key. The key comes from
 * `SWITCHBOARD_SECRET_KEY` or is generated once into `<data dir>/secret.key` (mode 0600).
 * Each envelope names the key it was made with, so a wrong key is reported, never decrypted to garbage.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { secretKeySetting } from "./env";
import { brandError, isBrandedInstance } from "./error-brand";

const ALGORITHM = "aes-256-gcm";
const VERSION = "v1";

/** Raised when stored secrets were made with another key; the message names the fix. */
export class SecretKeyError extends Error {
  /** The brand `instanceof` checks, which holds across the app's bundles (lib/error-brand.ts). */
  static readonly brand: string = "switchboard.SecretKeyError";
  static [Symbol.hasInstance](value: unknown): value is SecretKeyError {
    return isBrandedInstance(this, value);
  }
  constructor(message: string) {
    super(message);
    brandError(this, new.target);
    this.name = "SecretKeyError";
  }
}

/** An instance key and its short public fingerprint (stored in each envelope). */
export interface SecretKey {
  key: Buffer;
  id: string;
}

/** Build a key from its text form: 32 bytes as base64 or hex, or any passphrase of 32+ characters (hashed). */
export function keyFromText(text: string): SecretKey {
  const trimmed = text.trim();
  let key: Buffer | null = null;
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) key = Buffer.from(trimmed, "hex");
  else {
    const decoded = Buffer.from(trimmed, "base64");
    if (decoded.length === 32 && /^[A-Za-z0-9+/=_-]+$/.test(trimmed)) key = decoded;
  }
  if (!key) {
    if (trimmed.length < 32) {
      throw new SecretKeyError(
        "SWITCHBOARD_SECRET_KEY is too short: use 32 random bytes as base64 (e.g. `openssl rand -base64 32`) or a passphrase of at least 32 characters.",
      );
    }
    key = createHash("sha256").update(trimmed).digest();
  }
  return { key, id: createHash("sha256").update(key).digest("hex").slice(0, 12) };
}

/** Read a generated secret from `file`, creating it (mode 0600) when absent. */
export function readOrCreateSecretFile(file: string): string {
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const value = randomBytes(32).toString("base64");
  try {
    // `wx`: if two processes race at first start, the loser reads the winner's key.
    fs.writeFileSync(file, `${value}\n`, { mode: 0o600, flag: "wx" });
    return value;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return fs.readFileSync(file, "utf8").trim();
    throw error;
  }
}

/** The instance key: `SWITCHBOARD_SECRET_KEY`, else `<dataDir>/secret.key`, generated on first use. */
export function loadSecretKey(dataDir: string): SecretKey {
  const fromEnv = secretKeySetting();
  return keyFromText(fromEnv?.trim() ? fromEnv : readOrCreateSecretFile(path.join(dataDir, "secret.key")));
}

/** Encrypt `plaintext` into a self-describing envelope `v1.<keyId>.<iv>.<tag>.<ciphertext>`. */
export function encrypt(plaintext: string, secretKey: SecretKey): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv(ALGORITHM, secretKey.key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, secretKey.id, iv.toString("base64url"), tag.toString("base64url"), ciphertext.toString("base64url")].join(".");
}

/** Decrypt an envelope; a foreign key or a tampered envelope raises SecretKeyError, never garbage. */
export function decrypt(envelope: string, secretKey: SecretKey): string {
  const parts = envelope.split(".");
  if (parts.length !== 5 || parts[0] !== VERSION) throw new SecretKeyError("A stored secret is not in a format this version can read.");
  const [, keyId, iv, tag, ciphertext] = parts;
  if (keyId !== secretKey.id) throw new SecretKeyError(wrongKeyMessage(keyId, secretKey.id));
  try {
    const decipher = createDecipheriv(ALGORITHM, secretKey.key, Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    // GCM authentication failed: same key id but altered bytes. Report, never return garbage.
    throw new SecretKeyError("A stored secret failed its integrity check (the database was altered or is corrupt).");
  }
}

/** The message for data encrypted under another key, naming the fix. */
export function wrongKeyMessage(storedKeyId: string, currentKeyId: string): string {
  return (
    `The stored secrets were encrypted with key ${storedKeyId}, but the current key is ${currentKeyId}. ` +
    "Restore the original SWITCHBOARD_SECRET_KEY (or <data dir>/secret.key) and restart; " +
    "if that key is lost, move the data directory away to start fresh (stored secrets cannot be recovered)."
  );
}

/** The key id an envelope was made with (for start-up checks). */
export function envelopeKeyId(envelope: string): string | undefined {
  const parts = envelope.split(".");
  return parts.length === 5 ? parts[1] : undefined;
}
