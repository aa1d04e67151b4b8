/**
 * "Connect for everyone" on a `shared` server: the tokens a person obtains for the whole team live
 * apart from their own tokens for the same server (same store, every kind under
 * SHARED_KIND_PREFIX), so switching a server to `shared` never serves anyone's personal tokens and
 * only an explicit Connect for everyone fills the slot (docs/workspaces.md#credentials).
 */
import { SHARED_KIND_PREFIX } from "../../../db/queries/credentials";
import type { CredentialKind, OAuthStore } from "../shared/store";
import type { OAuthDeps } from "./deps";

// Every kind, for "forget everything". The check below fails to compile when a kind is added to
// CredentialKind and not here, which would leave it behind.
const EVERY_KIND = ["client", "tokens", "discovery", "required_scope", "requested_scope"] as const;
const listsEveryKind: Exclude<CredentialKind, (typeof EVERY_KIND)[number]> extends never ? true : never = true;
void listsEveryKind;

const shared = (kind: CredentialKind) => `${SHARED_KIND_PREFIX}${kind}` as CredentialKind;

/** The store's shared slot: every kind prefixed; pending authorizations marked for everyone. */
export function forEveryoneStore(store: OAuthStore): OAuthStore {
  return {
    get: (key, kind) => store.get(key, shared(kind)),
    set: (key, kind, value, expiresAt) => store.set(key, shared(kind), value, expiresAt),
    delete: (key, kinds) => store.delete(key, (kinds ?? (EVERY_KIND as readonly string[] as CredentialKind[])).map(shared)),
    savePending: (pending) => store.savePending({ ...pending, forEveryone: true }),
    takePending: (state) => store.takePending(state),
  };
}

/** The same OAuth collaborators, reading and writing the shared slot. */
export function forEveryoneDeps(deps: OAuthDeps): OAuthDeps {
  return { ...deps, store: forEveryoneStore(deps.store) };
}
