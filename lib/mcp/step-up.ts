/**
 * Step-up authorization (MCP spec, 403 `insufficient_scope`): the SDK transport answers such a
 * challenge by refreshing, which cannot widen the scope, and then fails. The engine watches its
 * HTTP responses for the challenge, tells the host's OAuth provider which scope the server asked
 * for, and reports the failed call as `needs_authorization` so the user connects again with it.
 */
import { extractWWWAuthenticateParams, type OAuthClientProvider } from "@modelcontextprotocol/client";
import type { FetchLike } from "@modelcontextprotocol/client";

/** An OAuth provider that can remember the wider scope a server challenged for. */
export interface StepUpRecorder {
  recordRequiredScope(scope: string): Promise<void>;
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
        challenge.set(scope);
        await provider.recordRequiredScope(scope);
      }
    }
    return response;
  };
}
