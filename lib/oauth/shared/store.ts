/**
 * The storage the OAuth provider needs, as a small interface: the web app keeps it in its database
 * (encrypted), the command line and the conformance client in memory.
 */

/** Who owns a credential: one user's view of one server. Nothing is ever shared across keys. */
export interface CredentialKey {
  userId: string;
  serverId: string;
}

/**
 * What is stored per key: the client registration, the tokens, the discovery result, the wider
 * scope a server asked for with a 403 `insufficient_scope` (requested on the next Connect), and the
 * scope the last authorization asked for (a token answer may grant no more).
 */
export type CredentialKind = "client" | "tokens" | "discovery" | "required_scope" | "requested_scope";

/** A pending authorization, from `redirectToAuthorization` until the callback takes it. */
export interface PendingAuthorization extends CredentialKey {
  state: string;
  codeVerifier: string;
  /** Epoch ms after which the callback refuses it. */
  expiresAt: number;
  /** A "Connect for everyone" of a shared server: the callback stores the tokens apart (lib/oauth/web/for-everyone.ts). */
  forEveryone?: boolean;
}

/** Credentials and pending authorizations; values are JSON text, encrypted at rest by SQL stores. */
export interface OAuthStore {
  /** The stored value of this kind, or undefined. */
  get(key: CredentialKey, kind: CredentialKind): Promise<string | undefined>;
  /** Store (replace) a value; `expiresAt` (epoch ms) is kept for tokens. */
  set(key: CredentialKey, kind: CredentialKind, value: string, expiresAt?: number): Promise<void>;
  /** Forget the given kinds (all kinds when omitted). */
  delete(key: CredentialKey, kinds?: CredentialKind[]): Promise<void>;
  /** Remember a pending authorization under its state. */
  savePending(pending: PendingAuthorization): Promise<void>;
  /** Take a pending authorization: returns it once, then never again (single use). */
  takePending(state: string): Promise<PendingAuthorization | undefined>;
  /**
   * Run `task` holding `key`'s refresh lease, shared by every process using this store, so that one
   * refresh token is never spent twice by two replicas; `task` reads the stored tokens afresh (another
   * process may have refreshed them while this one waited). A store one process owns (memory) has none.
   */
  underRefreshLease?<T>(key: CredentialKey, task: () => Promise<T>): Promise<T>;
}
