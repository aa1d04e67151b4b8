import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SecretKeyError, decrypt, encrypt, keyFromText, loadSecretKey, readOrCreateSecretFile } from "@/lib/crypto";

const keyA = keyFromText(Buffer.alloc(32, 1).toString("base64"));
const keyB = keyFromText(Buffer.alloc(32, 2).toString("base64"));

describe("AES-256-GCM envelopes", () => {
  it("round-trips text, including unicode and empty strings", () => {
    for (const text of ["", "ghp_secret", "Ünïcødé ✓ 🔑", "x".repeat(100_000)]) {
      expect(decrypt(encrypt(text, keyA), keyA)).toBe(text);
    }
  });

  it("uses a fresh IV each time, so equal secrets give different envelopes", () => {
    expect(encrypt("same", keyA)).not.toBe(encrypt("same", keyA));
  });

  it("never stores the plaintext", () => {
    expect(encrypt("sk-live-123456", keyA)).not.toContain("sk-live-123456");
  });

  it("rejects a wrong key with a message naming the fix, never garbage", () => {
    const envelope = encrypt("top secret", keyA);
    expect(() => decrypt(envelope, keyB)).toThrow(SecretKeyError);
    expect(() => decrypt(envelope, keyB)).toThrow(/SWITCHBOARD_SECRET_KEY/);
  });

  it("detects tampering through the GCM tag", () => {
    const parts = encrypt("top secret", keyA).split(".");
    const ciphertext = Buffer.from(parts[4], "base64url");
    ciphertext[0] ^= 0xff;
    parts[4] = ciphertext.toString("base64url");
    expect(() => decrypt(parts.join("."), keyA)).toThrow(/integrity/);
  });

  it("accepts hex, base64 and long passphrases; refuses short ones", () => {
    expect(keyFromText("ab".repeat(32)).key).toHaveLength(32);
    expect(keyFromText("a passphrase that is long enough to hash!").key).toHaveLength(32);
    expect(() => keyFromText("short")).toThrow(/too short/);
  });
});

describe("generated key file", () => {
  const dirs: string[] = [];
  afterEach(() => {
    delete process.env.SWITCHBOARD_SECRET_KEY;
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("is created once with mode 0600 and reused", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-key-"));
    dirs.push(dir);
    const first = loadSecretKey(dir);
    const second = loadSecretKey(dir);
    expect(second.id).toBe(first.id);
    expect(fs.statSync(path.join(dir, "secret.key")).mode & 0o777).toBe(0o600);
  });

  it("prefers SWITCHBOARD_SECRET_KEY over the file", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-key-"));
    dirs.push(dir);
    process.env.SWITCHBOARD_SECRET_KEY = Buffer.alloc(32, 9).toString("base64");
    expect(loadSecretKey(dir).id).toBe(keyFromText(process.env.SWITCHBOARD_SECRET_KEY).id);
    expect(fs.existsSync(path.join(dir, "secret.key"))).toBe(false);
  });

  it("readOrCreateSecretFile returns the same value on a second call", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-key-"));
    dirs.push(dir);
    const file = path.join(dir, "nested", "nextauth.secret");
    expect(readOrCreateSecretFile(file)).toBe(readOrCreateSecretFile(file));
  });
});
