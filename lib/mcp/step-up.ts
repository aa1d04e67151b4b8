/**
 * Step-up authorization (MCP spec, 403 `insufficient_scope`): the SDK transport answers such a
 * challenge by refreshing, which cannot widen the scope, and then fails. The engine watches its
 * HTTP responses for the challenge, tells the host's OAuth provider which scope the server asked
 * for, and reports the failed call as `needs_authorization` so the user connects again with it.
 */
import { extractWWWAuthenticateParams, type OAuthClientProvider } from "@modelcontextprotocol/client";
import type { FetchLike } from "@modelcontextprotocol/client";
import { isBrandedInstance } from "../error-brand";
import { EngineError } from "./errors";

/** An OAuth provider that can remember the wider scope a server challenged for. */
export interface StepUpRecorder {
  /** Remember a challenged scope; returns the whole scope the next authorization must ask for. */
  recordRequiredScope(scope: string): Promise<string>;
  /** The wider scope still waiting for the user's consent, if any (survives reconnects and restarts). */
  pendingStepUp(): Promise<string | undefined>;
}

/**
 * `needs_authorization` because the server wants a wider scope than the user granted: only a new
 * authorization (Connect) asking for `scope` can help, so reconnecting with the old token must not
 * hide it.
 */
export class StepUpRequiredError extends EngineError {
  static readonly brand: string = "switchboard.StepUpRequiredError";
  static [Symbol.hasInstance](value: unknown): value is StepUpRequiredError {
    return isBrandedInstance(this, value);
  }
  constructor(
    serverName: string,
    /** The scope the next Connect asks for (the granted scope plus the challenged one). */
    readonly scope: string,
    options: { cause?: unknown } = {},
  ) {
    super("needs_authorization", `server "${serverName}" needs a wider scope (${scope}); connect again to grant it`, options);
  }
}

/** Whether the host's provider takes step-up scopes. */
export function recordsStepUp(provider: OAuthClientProvider | undefined): provider is OAuthClientProvider & StepUpRecorder {
  return typeof (provider as Partial<StepUpRecorder> | undefined)?.recordRequiredScope === "function";
}

/** The last scope challenge seen on one connection; `take()` reads and clears it. */
export class ScopeChallenge {
  private scope: string | undefined;

  /** Record a challenged scope. */
  set(scope: string): void {
    this.scope = scope;
  }

  /** The challenged scope since the last take, if any. */
  take(): string | undefined {
    const scope = this.scope;
    this.scope = undefined;
    return scope;
  }
}

/** Wrap `fetch` so a 403 `insufficient_scope` challenge is recorded and passed to the provider. */
export function observeScopeChallenges(
  fetch: FetchLike,
  provider: OAuthClientProvider & StepUpRecorder,
  challenge: ScopeChallenge,
): FetchLike {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (response.status === 403) {
      const { error, scope } = extractWWWAuthenticateParams(response);
      if (error === "insufficient_scope" && scope) {
        challenge.set(await provider.recordRequiredScope(scope));
      }
    }
    return response;
  };
}
