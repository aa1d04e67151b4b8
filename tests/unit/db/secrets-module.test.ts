/**
 * Secrets at rest are encrypted and decrypted in one module, db/secrets.ts
 * (docs/security.md#secrets-at-rest): a structural check over the source, shown to catch a planted
 * call, and the module's own round trip.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { keyFromText } from "@/lib/crypto";
import { openJson, openSecret, sealJson, sealSecret } from "@/db/secrets";

const OWNERS = new Set(["lib/crypto.ts", "db/secrets.ts"]);
const CALLS = /\b(encrypt|decrypt)\(/;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full.split(path.sep).join("/")] : [];
  });
}

/** Whether a file other than the crypto primitives and db/secrets.ts encrypts or decrypts by itself. */
function sealsBySelf(file: string, text: string): boolean {
  return !OWNERS.has(file) && CALLS.test(text.replace(/^\s*(\/\/|\*).*$/gm, ""));
}

describe("secrets at rest in one module", () => {
  it("no file of lib/, db/ or app/ but db/secrets.ts calls encrypt() or decrypt()", () => {
    const files = ["lib", "db", "app"].flatMap(sourceFiles);
    expect(files.length).toBeGreaterThan(300);
    expect(files.filter((f) => sealsBySelf(f, fs.readFileSync(f, "utf8")))).toEqual([]);
  });

  it("flags a planted call and not a comment", () => {
    expect(sealsBySelf("lib/models/x.ts", "const apiKeyEnc = encrypt(apiKey, instanceKey());")).toBe(true);
    expect(sealsBySelf("db/queries/x.ts", "return JSON.parse(decrypt(row.secretsEnc, key));")).toBe(true);
    expect(sealsBySelf("db/queries/x.ts", "// values are an envelope from encrypt() in lib/crypto")).toBe(false);
    expect(sealsBySelf("db/secrets.ts", "return encrypt(plaintext, key);")).toBe(false);
  });

  it("seals and opens under the given key, and refuses another key", () => {
    const key = keyFromText("a".repeat(64));
    const other = keyFromText("b".repeat(64));
    const sealed = sealSecret("sk-test-123", key);
    expect(sealed).not.toContain("sk-test-123");
    expect(openSecret(sealed, key)).toBe("sk-test-123");
    expect(() => openSecret(sealed, other)).toThrow();
    expect(openJson<{ token: string }>(sealJson({ token: "t0k" }, key), key)).toEqual({ token: "t0k" });
  });
});
