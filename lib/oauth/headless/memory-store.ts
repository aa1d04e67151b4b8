/**
 * An in-memory OAuthStore for the command line and the conformance client: nothing outlives the
 * process, so nothing needs encrypting.
 */
import type { CredentialKey, CredentialKind, OAuthStore, PendingAuthorization } from "../shared/store";

/** Create an empty in-memory store. */
export function createMemoryStore(): OAuthStore {
  const values = new Map<string, string>();
  const pending = new Map<string, PendingAuthorization>();
  const id = (key: CredentialKey, kind: CredentialKind) => JSON.stringify([key.userId, key.serverId, kind]);
  return {
    async get(key, kind) {
      return values.get(id(key, kind));
    },
    async set(key, kind, value) {
      values.set(id(key, kind), value);
    },
    async delete(key, kinds = ["client", "tokens", "discovery"]) {
      for (const kind of kinds) values.delete(id(key, kind));
    },
    async savePending(entry) {
      pending.set(entry.state, entry);
    },
    async takePending(state) {
      const entry = pending.get(state);
      pending.delete(state);
      return entry;
    },
  };
}
