/**
 * Redaction table (docs/security.md#redaction): every credential format is masked in plain text,
 * inside JSON text, and inside a structured value, and ordinary text around it survives.
 */
import { describe, expect, it } from "vitest";
import { redact, redactJson } from "@/lib/redact";
import { CANARIES } from "../../fixtures/canaries.mjs";

describe("redact: one row per format", () => {
  it.each(CANARIES.map((c) => [c.format, c] as const))("%s", (_format, canary) => {
    const out = redact(`before ${canary.text} after`);
    expect(out).not.toContain(canary.secret);
    expect(out).toContain("[REDACTED]");
    expect(out.startsWith("before ")).toBe(true);
    // Inside a JSON-encoded log line or error body as well.
    expect(redact(JSON.stringify({ message: canary.text }))).not.toContain(canary.secret);
  });

  it.each(CANARIES.map((c) => [c.format, c] as const))("%s inside a structured value", (_format, canary) => {
    const out = JSON.stringify(redactJson({ rows: [{ note: canary.text }], nested: { deeper: [canary.text] } }));
    expect(out).not.toContain(canary.secret);
  });

  it("masks the whole value of a secret-looking key and leaves other keys and values alone", () => {
    expect(redactJson({ user: "ann", apiKey: "x1", db_password: "p", token_type: "Bearer", count: 3, pwd: "" })).toEqual({
      user: "ann",
      apiKey: "[REDACTED]",
      db_password: "[REDACTED]",
      token_type: "Bearer",
      count: 3,
      pwd: "",
    });
  });

  it("masks a Switchboard personal access token (sbp_ + 43 base64url characters) anywhere in a text", () => {
    const secret = "sbp_Q2hlY2tfdGhpc19pc19hX3Rva2VuX3dpdGgtZGFzaGVz_0";
    for (const text of [`token ${secret} here`, `X-Note: ${secret}`, JSON.stringify({ note: `curl -H 'x: ${secret}'` })]) {
      const out = redact(text);
      expect(out).not.toContain(secret.slice(4));
      expect(out).toContain("[REDACTED]");
    }
    expect(redact("the sbp_ prefix")).toBe("the sbp_ prefix");
  });

  it("leaves media bytes and ordinary look-alikes untouched", () => {
    const image = { type: "image", mimeType: "image/png", data: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.sig" };
    expect(redactJson(image)).toEqual(image);
    for (const text of ["pk_live_publishable1234567", "skeleton key", "ya29 is a number", "the npm_ prefix", "max_tokens: 100 words"]) {
      expect(redact(text)).toBe(text);
    }
  });
});
