/**
 * What opening one connection needs, in four groups: who it is for (`identity`), what it tells its
 * owner and which host handlers it serves (`hooks`), the caps on what the server sends (`limits`)
 * and how the server is reached (`transport`). `connectionOptions` builds them for a pool entry.
 */
import type { FetchLike, LoggingMessageNotification, OAuthClientProvider } from "@modelcontextprotocol/client";
import { clientRelay } from "./client-relay";
import type { Clock } from "./clock";
import type { ServerDefinition } from "./config";
import { endpointHash } from "./config-hash";
import type { ListKind } from "./discovery";
import type { EraCache } from "./era";
import type { LaunchWrapper } from "./launch";
import type { EngineLimits } from "./limits";
import type { Logger } from "./logger";
import type { StdioPlacement } from "./placement";
import type { ResolvedPoolOptions } from "./pool-options";
import type { SamplingGate } from "./sampling";
import type { ScopeChallenge } from "./step-up";
import type { ElicitationHandler, LoggingMessageHandler } from "./types";

/** Who the connection is for. */
export interface ConnectionIdentity {
  userId: string;
  server: ServerDefinition;
  /** clientInfo.version sent in initialize. */
  clientVersion: string;
}

/** What the connection tells its owner, and the host's handlers for what the server asks. */
export interface ConnectionHooks {
  onElicitation?: ElicitationHandler;
  onLoggingMessage?: LoggingMessageHandler;
  onListChanged: (kind: ListKind) => void;
  /** The link closed without `close()` being called (crash, server exit). */
  onUnexpectedClose: () => void;
  /** Every `notifications/message` of this connection (its log buffer). */
  onLogEntry?: (params: LoggingMessageNotification["params"]) => void;
  /** `notifications/resources/updated` for a subscribed resource. */
  onResourceUpdated?: (uri: string) => void;
  /** Sampling policy gate of this (user, server). */
  samplingGate?: SamplingGate;
  /** Where a 403 `insufficient_scope` challenge on this connection is recorded (step-up). */
  scopeChallenge: ScopeChallenge;
}

/** Caps on what the server sends (docs/limits.md), and on the stdio child. */
export type ConnectionLimits = EngineLimits & {
  /** SIGTERM → SIGKILL grace when stopping a stdio child. */
  killGraceMs?: number;
  /** Bytes of stderr kept per child. */
  stderrBytes?: number;
};

/** How the server is reached. */
export interface ConnectionTransport {
  /** Wraps stdio launches (the sandbox). */
  launchWrapper: LaunchWrapper;
  /** fetch for both HTTP transports (the SSRF guard plugs in here). */
  fetch?: FetchLike;
  /** Resolved when an HTTP connection opens (the app looks up whose tokens a shared server uses). */
  authProvider?: OAuthClientProvider | Promise<OAuthClientProvider | undefined>;
  /** `params._meta` entries for each request sent over stdio (PoolOptions.requestMeta). */
  requestMeta?: () => Record<string, string> | undefined;
  /** Remembered protocol eras, and this server's key in them (its endpoint hash: URL and headers, or the launch). */
  eras?: EraCache;
  eraKey?: string;
  /** Where a stdio server runs when several processes serve the instance (PoolOptions.placement). */
  placement?: StdioPlacement;
}

/** Everything needed to open one connection. */
export interface ConnectionOptions {
  identity: ConnectionIdentity;
  hooks: ConnectionHooks;
  limits: ConnectionLimits;
  transport: ConnectionTransport;
  logger: Logger;
  clock: Clock;
  /** Aborts a connect in progress (e.g. the pool closes the server). */
  signal?: AbortSignal;
}

/** A pool entry's options for one connect attempt: the pool's settings plus the entry's own hooks. */
export function connectionOptions(
  pool: ResolvedPoolOptions,
  identity: Omit<ConnectionIdentity, "clientVersion">,
  hooks: Omit<ConnectionHooks, "onElicitation" | "onLoggingMessage">,
  signal: AbortSignal,
): ConnectionOptions {
  const authProvider = pool.authProvider?.(identity.userId, identity.server);
  // Awaited (and a failure reported) when an HTTP connection opens; a stdio launch never reads it,
  // so its rejection must not go unhandled.
  if (authProvider instanceof Promise) authProvider.catch(() => undefined);
  return {
    identity: { ...identity, clientVersion: pool.clientVersion },
    // A request made for another client may have it answer the server's questions (client-relay.ts).
    hooks: {
      ...hooks,
      onElicitation: pool.onElicitation && relayingElicitation(pool.onElicitation),
      onLoggingMessage: pool.onLoggingMessage,
    },
    // `maxMessageBytes` (the older option) and `limits.maxMessageBytes` are resolved to one cap.
    limits: { ...pool.limits, maxMessageBytes: pool.maxMessageBytes, killGraceMs: pool.killGraceMs, stderrBytes: pool.stderrBytes },
    transport: {
      launchWrapper: pool.launchWrapper,
      fetch: pool.fetch,
      authProvider,
      requestMeta: pool.requestMeta,
      eras: pool.eras,
      // The era is the endpoint's: a renamed server or one with other settings need not probe again.
      eraKey: endpointHash(identity.server.config),
      placement: pool.placement,
    },
    logger: pool.logger,
    clock: pool.clock,
    signal,
  };
}

/** The host's elicitation handler, with the current request's client asked first when it can answer. */
export function relayingElicitation(host: ElicitationHandler): ElicitationHandler {
  return (userId, server, params, signal) => clientRelay()?.elicit?.(params, signal) ?? host(userId, server, params, signal);
}
