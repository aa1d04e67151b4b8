/**
 * The web app's OAuthStore: `server_credentials` and `oauth_states` in the database, every value an
 * AES-256-GCM envelope under the instance key (docs/security.md#secrets-at-rest).
 */
import type { Db } from "../../../db/client";
import { generationOf } from "../../../db/generation";
import { deleteCredentials, getCredential, putCredential } from "../../../db/queries/credentials";
import { insertOAuthState, takeOAuthState } from "../../../db/queries/oauth-states";
import { releaseLease, takeLease } from "../../../db/queries/leases";
import { randomUUID } from "node:crypto";
import type { SecretKey } from "../../crypto";
import { openSecret, sealSecret } from "../../../db/secrets";
import { LookupCache } from "../../lookup-cache";
import type { CredentialKey, CredentialKind, OAuthStore } from "../shared/store";

// The MCP transport asks for the tokens before every request, to every HTTP server (one without
// OAuth simply has none): decrypted values per (user, server, kind), valid until the next write to
// the credentials (db/generation.ts), so a refresh, a disconnect or a removed member is seen at once.
const values = new LookupCache<{ value: string | undefined }>(20_000);

/** How often a process waiting for another's refresh lease asks again. */
const LEASE_POLL_MS = 100;

/**
 * An OAuthStore over `db`, encrypting with `key`. `refreshLeaseMs` bounds a refresh lease: longer
 * than a refresh can take (its requests are bounded), so that a process that died holding one only
 * delays the others by that much.
 */
export function createDbStore(db: Db, key: SecretKey, refreshLeaseMs = 60_000): OAuthStore {
  const cacheKey = (ref: CredentialKey, kind: CredentialKind) => `${ref.userId}\u0000${ref.serverId}\u0000${kind}\u0000${key.id}`;
  return {
    async underRefreshLease(ref, task) {
      const name = `oauth-refresh:${ref.userId}:${ref.serverId}`;
      const owner = randomUUID();
      while (!(await takeLease(db, name, owner, refreshLeaseMs))) await new Promise((resolve) => setTimeout(resolve, LEASE_POLL_MS));
      try {
        // The tokens as committed now, not as cached: the lease's last holder may have just
        // refreshed them in another process, whose change notice may not have arrived yet.
        values.delete(cacheKey(ref, "tokens"));
        return await task();
      } finally {
        await releaseLease(db, name, owner);
      }
    },
    async get(ref, kind) {
      const cached = await values.readAsync(cacheKey(ref, kind), generationOf(db), async () => {
        const row = await getCredential(db, { ...ref, kind });
        return { value: row ? openSecret(row.valueEnc, key) : undefined };
      });
      return cached.value;
    },
    async set(ref, kind, value, expiresAt) {
      await putCredential(
        db,
        { ...ref, kind },
        { valueEnc: sealSecret(value, key), expiresAt: expiresAt === undefined ? null : new Date(expiresAt) },
      );
    },
    async delete(ref, kinds) {
      await deleteCredentials(db, { ...ref, kinds });
    },
    async savePending(pending) {
      await insertOAuthState(db, {
        state: pending.state,
        userId: pending.userId,
        serverId: pending.serverId,
        codeVerifierEnc: sealSecret(pending.codeVerifier, key),
        expiresAt: new Date(pending.expiresAt),
        forEveryone: pending.forEveryone === true,
      });
    },
    async takePending(state) {
      const row = await takeOAuthState(db, state);
      if (!row) return undefined;
      return {
        state: row.state,
        userId: row.userId,
        serverId: row.serverId,
        codeVerifier: row.codeVerifierEnc ? openSecret(row.codeVerifierEnc, key) : "",
        expiresAt: row.expiresAt.getTime(),
        ...(row.forEveryone ? { forEveryone: true } : {}),
      };
    },
  };
}
