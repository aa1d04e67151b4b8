/**
 * A WebAuthn authenticator in software (node:crypto, ES256), for tests that need real registration
 * and authentication responses without a browser: it answers the options @simplewebauthn/server
 * generates exactly as a platform authenticator would (attestation "none", a discoverable
 * credential whose user handle is the options' user id), so the server library verifies them for real.
 */
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto";
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { isoCBOR } from "@simplewebauthn/server/helpers";

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();

// Authenticator data flags (WebAuthn §6.1): user present, user verified, attested credential data.
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

/** How the authenticator answers: `verified` sets the UV flag; `origin` is what the "browser" reports. */
export interface AuthenticatorOptions {
  origin: string;
  verified?: boolean;
}

/** One credential the authenticator holds. */
export interface SoftCredential {
  id: Buffer;
  privateKey: KeyObject;
  rpId: string;
  userHandle: string;
  counter: number;
}

/** A software authenticator holding the credentials it created. */
export class SoftwareAuthenticator {
  readonly credentials: SoftCredential[] = [];

  constructor(private readonly options: AuthenticatorOptions) {}

  /** Answer `navigator.credentials.create(options)`. */
  create(options: PublicKeyCredentialCreationOptionsJSON, overrides: Partial<AuthenticatorOptions> = {}): RegistrationResponseJSON {
    const { origin, verified = true } = { ...this.options, ...overrides };
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const jwk = publicKey.export({ format: "jwk" });
    const id = randomBytes(16);
    const credential = { id, privateKey, rpId: options.rp.id ?? "", userHandle: options.user.id, counter: 0 };
    this.credentials.push(credential);
    // COSE_Key (RFC 9053): kty EC2 (2), alg ES256 (-7), crv P-256 (1), x, y.
    const coseKey = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x ?? "", "base64url")],
        [-3, Buffer.from(jwk.y ?? "", "base64url")],
      ]),
    );
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const authData = Buffer.concat([
      authenticatorData(credential.rpId, UP | AT | (verified ? UV : 0), 0),
      Buffer.alloc(16), // AAGUID: none
      idLength,
      id,
      Buffer.from(coseKey),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authData],
      ]) as never,
    );
    const clientDataJSON = JSON.stringify({ type: "webauthn.create", challenge: options.challenge, origin, crossOrigin: false });
    return {
      id: b64url(id),
      rawId: b64url(id),
      type: "public-key",
      response: {
        clientDataJSON: b64url(Buffer.from(clientDataJSON)),
        attestationObject: b64url(attestationObject),
        transports: ["internal"],
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }

  /**
   * Answer `navigator.credentials.get(options)` with the credential `which` (default: the first one
   * the options allow, or the first held). `counter` overrides the signature counter (a clone's).
   */
  get(
    options: PublicKeyCredentialRequestOptionsJSON,
    overrides: Partial<AuthenticatorOptions> & { which?: SoftCredential; counter?: number } = {},
  ): AuthenticationResponseJSON {
    const { origin, verified = true } = { ...this.options, ...overrides };
    const allowed = options.allowCredentials?.map((c) => c.id) ?? [];
    const credential =
      overrides.which ?? this.credentials.find((c) => allowed.length === 0 || allowed.includes(b64url(c.id))) ?? this.credentials[0];
    // An override (a clone's counter) leaves the authenticator's own count where it was.
    const counter = overrides.counter ?? ++credential.counter;
    const authData = authenticatorData(credential.rpId, UP | (verified ? UV : 0), counter);
    const clientDataJSON = Buffer.from(JSON.stringify({ type: "webauthn.get", challenge: options.challenge, origin, crossOrigin: false }));
    const signature = sign("sha256", Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: "public-key",
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }
}

function authenticatorData(rpId: string, flags: number, counter: number): Buffer {
  const count = Buffer.alloc(4);
  count.writeUInt32BE(counter);
  return Buffer.concat([sha256(rpId), Buffer.from([flags]), count]);
}
