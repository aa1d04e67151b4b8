/** The internal hop's proof (lib/runtime/internal-hop.ts): made for one replica, fresh, never replayed, and the replica's address. */
import os from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { HOP_WINDOW_MS, HopVerifier, hopKey, internalUrl, signHop } from "@/lib/runtime/internal-hop";

const key = hopKey(Buffer.alloc(32, 7));
const request = { method: "POST", path: "/api/internal/sandbox", body: '{"message":1}' };
const at = 1_800_000_000_000;
const verifierOf = (self: string) =>
  new HopVerifier(
    () => key,
    () => self,
  );

describe("the hop's proof", () => {
  it("verifies for the replica it was made for, naming the sender", () => {
    expect(verifierOf("b").verify(signHop(key, "b", "a", request, at), request, at + 5)).toEqual({ ok: true, from: "a" });
  });

  it("is refused by another replica, once replayed, out of the window, or under another key", () => {
    const proof = signHop(key, "b", "a", request, at);
    expect(verifierOf("c").verify(proof, request, at)).toMatchObject({ ok: false });
    const b = verifierOf("b");
    expect(b.verify(proof, request, at).ok).toBe(true);
    expect(b.verify(proof, request, at + 1)).toEqual({ ok: false, reason: "a replayed proof" });
    expect(verifierOf("b").verify(proof, request, at + HOP_WINDOW_MS + 1)).toMatchObject({ ok: false });
    expect(verifierOf("b").verify(proof, request, at - HOP_WINDOW_MS - 1)).toMatchObject({ ok: false });
    const other = signHop(hopKey(Buffer.alloc(32, 8)), "b", "a", request, at);
    expect(verifierOf("b").verify(other, request, at)).toEqual({ ok: false, reason: "a wrong signature" });
  });

  it("covers the body, the path and the method", () => {
    const proof = signHop(key, "b", "a", request, at);
    for (const changed of [
      { ...request, body: '{"message":2}' },
      { ...request, path: "/api/other" },
      { ...request, method: "PUT" },
    ]) {
      expect(verifierOf("b").verify(proof, changed, at)).toEqual({ ok: false, reason: "a wrong signature" });
    }
  });

  it("refuses a missing or malformed proof", () => {
    const b = verifierOf("b");
    expect(b.verify(null, request, at).ok).toBe(false);
    expect(b.verify("v1 b a", request, at).ok).toBe(false);
    expect(b.verify("v2 b a 1 n p", request, at).ok).toBe(false);
    expect(b.verify(signHop(key, "b", "a", request, at).replace(String(at), "soon"), request, at).ok).toBe(false);
  });

  it("keeps replica ids with spaces or dots apart from the proof's fields", () => {
    const proof = signHop(key, "replica b.1", "a", request, at);
    expect(verifierOf("replica b.1").verify(proof, request, at)).toEqual({ ok: true, from: "a" });
  });
});

describe("the replica's internal address", () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });
  const env = (values: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };

  it("is SWITCHBOARD_INTERNAL_URL when set", () => {
    env({ SWITCHBOARD_INTERNAL_URL: "http://app-1.internal:3000/", HOSTNAME: "0.0.0.0", PORT: "80" });
    expect(internalUrl()).toBe("http://app-1.internal:3000");
  });

  it("is HOSTNAME and PORT when HOSTNAME names one address", () => {
    env({ SWITCHBOARD_INTERNAL_URL: undefined, HOSTNAME: "10.0.0.5", PORT: "4000" });
    expect(internalUrl()).toBe("http://10.0.0.5:4000");
    env({ HOSTNAME: "fd00::5" });
    expect(internalUrl()).toBe("http://[fd00::5]:4000");
  });

  it("is this machine's host name when the server binds every interface, on port 3000 by default", () => {
    env({ SWITCHBOARD_INTERNAL_URL: undefined, HOSTNAME: "0.0.0.0", PORT: undefined });
    expect(internalUrl()).toBe(`http://${os.hostname()}:3000`);
    env({ HOSTNAME: undefined });
    expect(internalUrl()).toBe(`http://${os.hostname()}:3000`);
  });
});
