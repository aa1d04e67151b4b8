/**
 * The internal hop: requests one replica sends another directly (a call to a stdio server whose
 * sandbox runs on the other, lib/runtime/sandbox-relay.ts), at the address each replica records in
 * the registry (`SWITCHBOARD_INTERNAL_URL`). They reach a route no session guards, so each carries
 * a proof in one header: an HMAC-SHA256, under a key derived from the instance key with HKDF (a
 * label of its own, so it is the same on every replica and never the instance key itself), of the
 * replica it is for, the replica it is from, when it was made, a random nonce, the method, the path
 * and the SHA-256 of the body. The receiver accepts a proof made for itself, within
 * `HOP_WINDOW_MS` of its own clock, whose nonce it has not seen: a request captured on the wire can
 * be neither changed, nor replayed, nor sent to another replica.
 */
import { createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
import os from "node:os";
import { instanceKey } from "../../db/key-check";
import { replicaId } from "../cluster/replicas";
import { internalUrlSetting, listenSetting } from "../env";
import { singleton } from "../singleton";

/** The header the proof travels in. */
export const HOP_HEADER = "x-switchboard-hop";
/** How far a proof's time may be from the receiver's clock, either way (clocks of replicas stay within it by NTP). */
export const HOP_WINDOW_MS = 30_000;
/** HKDF's `info`: this key signs internal hops and nothing else. */
const KEY_LABEL = "switchboard/cluster/internal-hop/v1";
/** The proof's format, first in the header and in what is signed. */
const VERSION = "v1";
/** Most nonces remembered at once (a window's worth of hops at 3 000 a second); past it, hops are refused. */
const MAX_NONCES = 200_000;

/** The key hops are signed with, derived from `secret` (the instance key's bytes). */
export function hopKey(secret: Buffer = instanceKey().key): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, Buffer.alloc(0), KEY_LABEL, 32));
}

/**
 * Where the other replicas reach this one: `SWITCHBOARD_INTERNAL_URL`, or else `http://<host>:<PORT>`
 * with `HOSTNAME` when it names one address, this machine's host name when it binds every interface.
 */
export function internalUrl(): string {
  const configured = internalUrlSetting();
  if (configured) return configured.replace(/\/+$/, "");
  const { hostname, port } = listenSetting();
  const wildcard = !hostname || hostname === "0.0.0.0" || hostname === "::" || hostname === "[::]";
  const host = wildcard ? os.hostname() : hostname;
  return `http://${host.includes(":") && !host.startsWith("[") ? `[${host}]` : host}:${port ?? "3000"}`;
}

/** What a proof covers besides the two replicas. */
export interface HopRequest {
  method: string;
  /** The path, without the query. */
  path: string;
  body: string;
}

function mac(key: Buffer, to: string, from: string, at: number, nonce: string, request: HopRequest): Buffer {
  const body = createHash("sha256").update(request.body).digest("hex");
  return createHmac("sha256", key)
    .update(JSON.stringify([VERSION, to, from, at, nonce, request.method.toUpperCase(), request.path, body]))
    .digest();
}

/** The header value proving `request` comes from replica `from` and is meant for replica `to`, now. */
export function signHop(key: Buffer, to: string, from: string, request: HopRequest, now = Date.now()): string {
  const nonce = randomBytes(16).toString("base64url");
  const proof = mac(key, to, from, now, nonce, request).toString("base64url");
  return [VERSION, encodeURIComponent(to), encodeURIComponent(from), String(now), nonce, proof].join(" ");
}

/** A proof checked: the sending replica, or why it was refused (for the log; the caller answers 401 alike). */
export type HopVerdict = { ok: true; from: string } | { ok: false; reason: string };

/** The receiving end: checks proofs and remembers the nonces it accepted while they could be replayed. */
export class HopVerifier {
  /** Nonce → until when it is remembered; in the order they came (a proof's time is within the window). */
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly key: () => Buffer,
    private readonly self: () => string,
  ) {}

  /** Check `header` for `request`, received `now`. */
  verify(header: string | null, request: HopRequest, now = Date.now()): HopVerdict {
    if (!header) return { ok: false, reason: "no proof" };
    const parts = header.split(" ");
    if (parts.length !== 6 || parts[0] !== VERSION) return { ok: false, reason: "a malformed proof" };
    const [, rawTo, rawFrom, rawAt, nonce, proof] = parts;
    let to: string;
    let from: string;
    try {
      to = decodeURIComponent(rawTo);
      from = decodeURIComponent(rawFrom);
    } catch {
      return { ok: false, reason: "a malformed proof" };
    }
    const at = Number(rawAt);
    if (!Number.isSafeInteger(at)) return { ok: false, reason: "a malformed proof" };
    const expected = mac(this.key(), to, from, at, nonce, request);
    const given = Buffer.from(proof, "base64url");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: "a wrong signature" };
    if (to !== this.self()) return { ok: false, reason: `a proof for replica ${to}` };
    if (Math.abs(now - at) > HOP_WINDOW_MS)
      return { ok: false, reason: `a proof made ${Math.round((now - at) / 1000)} s away from this clock` };
    this.forget(now);
    if (this.seen.has(nonce)) return { ok: false, reason: "a replayed proof" };
    if (this.seen.size >= MAX_NONCES) return { ok: false, reason: "too many hops at once" };
    // Remembered until the proof is out of the window on either side.
    this.seen.set(nonce, at + HOP_WINDOW_MS);
    return { ok: true, from };
  }

  private forget(now: number): void {
    for (const [nonce, until] of this.seen) {
      if (until >= now) break;
      this.seen.delete(nonce);
    }
  }
}

/** This replica's verifier (its key derived once; the nonces it accepted). */
export function hopVerifier(): HopVerifier {
  return singleton("runtime.hopVerifier", () => {
    const key = hopKey();
    return new HopVerifier(() => key, replicaId);
  });
}
