/**
 * The one place oidc-provider keeps state (docs/gateway.md#the-authorization-server): its adapter
 * interface over `oauth_server_records`. A record is keyed by the SHA-256 of its model and id, so an
 * access token, refresh token or code (each its own id) is never stored in clear; the payload is
 * sealed with the instance key (a client's secret lives in it). Any replica serves any step of a
 * flow, as nothing is kept in the process.
 */
import { createHash } from "node:crypto";
import type { Db } from "../../db/client";
import {
  consumeOAuthServerRecord,
  deleteOAuthServerGrant,
  deleteOAuthServerRecord,
  extendOAuthServerRecord,
  findOAuthServerRecordBy,
  getOAuthServerRecord,
  type OAuthServerRecord,
  upsertOAuthServerRecord,
} from "../../db/queries/oauth-server";
import { openJson, sealJson } from "../../db/secrets";

/** A payload as oidc-provider hands it over (its fields vary by model). */
export type AdapterPayload = Record<string, unknown>;

/** oidc-provider's adapter interface, as `new Adapter(modelName)` makes one. */
export interface OAuthServerAdapter {
  upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void>;
  find(id: string): Promise<AdapterPayload | undefined>;
  findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
  findByUid(uid: string): Promise<AdapterPayload | undefined>;
  consume(id: string): Promise<void>;
  destroy(id: string): Promise<void>;
  revokeByGrantId(grantId: string): Promise<void>;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** The key a record of `model` with this `id` is stored under. */
export function recordKey(model: string, id: string): string {
  return sha256(`${model}\0${id}`);
}

const text = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);

/** What oidc-provider reads back: the payload, with `consumed` when the record was consumed. */
function opened(record: OAuthServerRecord | null, now = Date.now()): AdapterPayload | undefined {
  if (!record) return undefined;
  // Expired rows wait for the sweep; until then they are absent as oidc-provider expects.
  if (record.expiresAt && record.expiresAt.getTime() <= now) return undefined;
  const payload = openJson<AdapterPayload>(record.payloadEnc);
  return record.consumedAt ? { ...payload, consumed: Math.floor(record.consumedAt.getTime() / 1000) } : payload;
}

/**
 * How long a registered client nobody uses is kept: 30 days after its registration, or after the
 * end of its latest grant (oidc-provider itself keeps a client forever).
 */
export const UNUSED_CLIENT_MS = 30 * 86_400_000;

/**
 * When a record of `model` expires: after oidc-provider's `expiresIn`; a registered client after
 * `UNUSED_CLIENT_MS` unless a grant extends it (docs/gateway.md#the-authorization-server).
 */
function expiryOf(model: string, expiresIn: number | undefined, now = Date.now()): Date | null {
  if (expiresIn) return new Date(now + expiresIn * 1000);
  return model === "Client" ? new Date(now + UNUSED_CLIENT_MS) : null;
}

/** The adapter class oidc-provider instantiates per model, over `db`. */
export function adapterOver(db: Db): new (model: string) => OAuthServerAdapter {
  return class DbAdapter implements OAuthServerAdapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      const grantId = this.model === "Grant" ? id : text(payload.grantId);
      const clientId = text(payload.clientId) ?? text(payload.client_id);
      const expiresAt = expiryOf(this.model, expiresIn);
      await upsertOAuthServerRecord(db, {
        keyHash: recordKey(this.model, id),
        model: this.model,
        payloadEnc: sealJson(payload),
        grantId,
        uidHash: text(payload.uid) ? sha256(payload.uid as string) : null,
        userCodeHash: text(payload.userCode) ? sha256(payload.userCode as string) : null,
        userId: this.model === "Session" || this.model === "Interaction" ? null : text(payload.accountId),
        clientId,
        expiresAt,
      });
      // A grant (a user's consent) uses its client: the client stays until its grant's end and the unused time after.
      if (this.model === "Grant" && clientId && expiresAt) {
        await extendOAuthServerRecord(db, recordKey("Client", clientId), new Date(expiresAt.getTime() + UNUSED_CLIENT_MS));
      }
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      return opened(await getOAuthServerRecord(db, recordKey(this.model, id)));
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return opened(await findOAuthServerRecordBy(db, this.model, { userCodeHash: sha256(userCode) }));
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return opened(await findOAuthServerRecordBy(db, this.model, { uidHash: sha256(uid) }));
    }

    async consume(id: string): Promise<void> {
      await consumeOAuthServerRecord(db, recordKey(this.model, id), new Date());
    }

    async destroy(id: string): Promise<void> {
      await deleteOAuthServerRecord(db, recordKey(this.model, id));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await deleteOAuthServerGrant(db, grantId);
    }
  };
}
