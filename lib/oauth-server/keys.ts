/**
 * The authorization server's keys, derived from the instance key with HKDF under labels of their
 * own (as lib/apps/loopback-grant.ts does): the same on every replica with nothing shared at run
 * time, never written anywhere, and never the instance key itself. Rotating the instance key
 * rotates them (and invalidates the interaction cookies of flows under way; stored tokens are
 * opaque and looked up by hash, so they stay valid).
 */
import { createPrivateKey, hkdfSync } from "node:crypto";
import { instanceKey } from "../../db/key-check";

const SIGNING_LABEL = "switchboard/oauth-server/signing-key/v1";
const COOKIE_LABEL = "switchboard/oauth-server/cookie-key/v1";

// The DER head of a PKCS #8 Ed25519 private key: followed by the 32-byte seed, it is the key.
const ED25519_PKCS8_HEAD = Buffer.from("302e020100300506032b657004220420", "hex");

function derive(secret: Buffer, label: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, Buffer.alloc(0), label, 32));
}

/**
 * The JWK set oidc-provider signs with (ID tokens only: access tokens are opaque): one Ed25519 key
 * whose seed is derived from `secret` (the instance key's bytes). EdDSA because a seed is a whole
 * key, where an RSA key would have to be generated and stored.
 */
export function signingJwks(secret: Buffer = instanceKey().key): { keys: Record<string, unknown>[] } {
  const key = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_HEAD, derive(secret, SIGNING_LABEL)]), format: "der", type: "pkcs8" });
  const jwk = key.export({ format: "jwk" });
  return {
    keys: [{ ...jwk, alg: "EdDSA", use: "sig", kid: `sb-${derive(secret, `${SIGNING_LABEL}/kid`).toString("base64url").slice(0, 16)}` }],
  };
}

/** The key oidc-provider signs its cookies with (interaction, resume, session), derived from `secret`. */
export function cookieKeys(secret: Buffer = instanceKey().key): string[] {
  return [derive(secret, COOKIE_LABEL).toString("base64url")];
}
