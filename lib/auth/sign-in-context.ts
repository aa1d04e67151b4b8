/**
 * What one request to next-auth's credentials callback carries between our handler
 * (nextauth-handler.ts) and the provider's `authorize` (options.ts), which next-auth calls with the
 * form only: the pending sign-in's token from its cookie in, a new pending sign-in out.
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** The request's slot. */
export interface SignInContext {
  /** The client address (for the throttle). */
  address: string;
  /** The app's public origin, which a passkey's answer must be signed for. */
  origin?: string;
  /** The pending sign-in token the request's cookie carried (second step). */
  pendingToken?: string;
  /** A single sign-on's page to return to once signed in (lib/auth/return-path.ts), carried past its second factor. */
  returnTo?: string;
  /** Set by `authorize` when the password was right and a second factor is owed. */
  startedPending?: string;
}

const storage = new AsyncLocalStorage<SignInContext>();

/** Run `fn` with `context` as the current request's slot. */
export function withSignInContext<T>(context: SignInContext, fn: () => Promise<T>): Promise<T> {
  return storage.run(context, fn);
}

/** The current request's slot, or undefined outside a credentials callback. */
export function signInContext(): SignInContext | undefined {
  return storage.getStore();
}
