/**
 * The web app's wiring of the MCP engine: one pool per process with the stdio sandbox, the SSRF
 * guard on every HTTP transport fetch, and a redacting log sink. Routes and the agent use this;
 * the command line builds its own pool (no sandbox, loopback allowed: it runs as the local user).
 */
import "server-only";
import path from "node:path";
import { engineLimitsFromEnv, getPool, McpPool, samplingMaxTokensFromEnv, type PoolOptions, type ServerDefinition } from "../mcp";
import type { AuthProviderFactory } from "../mcp/types";
import { poolAdmission } from "../quotas";
import { createSandboxWrapper, sandboxLimitsFromEnv } from "../mcp/sandbox";
import { mayReapOnThisHost } from "./cgroup-reaper";
import { guardedFetchFromEnv } from "../net";
import {
  dataDir,
  environment,
  mcpIdleMinutesSetting,
  mcpPingIntervalSetting,
  sandboxMode,
  sandboxSeccomp,
  turnWaitSecondsSetting,
} from "../env";
import type { Db } from "../../db/client";
import { getServerByIdUnscoped } from "../../db/queries/servers";
import { getMembershipRole } from "../../db/queries/workspaces";
import { getDb } from "../../db/client";
import { credentialAccountFor, definitionFor } from "../servers/credential-mode";
import { consoleLogger } from "./console-logger";
import { cachedServerDefinition, cachedServerDefinitions } from "./definition-cache";
import { elicitationBroker } from "./elicitations";
import { samplingHost } from "./sampling";
import { questionDesk } from "./question-desk";
import { interactionLog } from "./interactions";
import { appAuthProviderFactory, appOAuthDeps } from "./oauth-deps";
import { providerFor } from "../oauth/web/deps";
import { forEveryoneDeps } from "../oauth/web/for-everyone";
import { onServerReleased } from "../servers/release";
import { redact } from "../redact";
import { singleton } from "../singleton";
import { installAppShutdown } from "./app-shutdown";
import { publishStatus, statusEvents } from "./status-events";
import { connectionLog } from "./connection-log";
import { observeLiveFigures } from "../telemetry/metrics";
import { tracedMcpFetch } from "../telemetry/mcp-fetch";
import { traceMeta } from "../telemetry/trace-meta";
import { recordMcpRequest, usageRecordingOn } from "../usage/record";
import { sandboxPlacement } from "./sandbox-placement";

/** How long an unused connection stays open (`SWITCHBOARD_MCP_IDLE_MINUTES`, default 30; 0 = never). */
function idleTimeoutMs(): number {
  const minutes = Number(mcpIdleMinutesSetting() ?? 30);
  return Number.isFinite(minutes) && minutes > 0 ? minutes * 60_000 : 0;
}

/** Idle time before a health ping (`SWITCHBOARD_MCP_PING_INTERVAL_MS`; unset or invalid: the engine's 50 s; 0 = none). */
function pingIntervalMs(): number | undefined {
  const raw = mcpPingIntervalSetting()?.trim();
  const ms = raw ? Number(raw) : Number.NaN;
  return Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}

/** The process-wide pool, created on first use with the app's sandbox, SSRF guard and logger. */
export function appPool(): McpPool {
  // Built once: the options (sandbox wrapper, guarded fetch with its connection cache) must not be
  // rebuilt on every request only to be ignored by an existing pool.
  return singleton("host.appPool", () => {
    const pool = getPool(poolOptions());
    observeLiveFigures(() => ({ connections: pool.liveConnections(), sandboxes: pool.liveSandboxes() }));
    // The app's start-up of the engine: no sandboxed child may outlive the server process.
    installAppShutdown();
    onServerReleased(async (serverId) => {
      // Withdraw first: an answer typed into a removed server's form must never reach it.
      elicitationBroker().withdrawServer(serverId);
      samplingHost().reviews.withdraw((view) => view.serverId === serverId);
      // …and on every other replica: their rows are withdrawn, their holders hear of it. A failure is
      // logged and the connections close all the same.
      await questionDesk()
        .withdraw({ serverIds: [serverId] }, "released")
        .catch((error: unknown) => console.warn("[switchboard] withdrawing a released server's questions failed:", redact(String(error))));
      await pool.closeServer(serverId);
      connectionLog().forgetServer(serverId);
    });
    return pool;
  });
}

/**
 * A pool of its own with the app's sandbox, SSRF guard and OAuth, for a one-off connection test:
 * nothing it opens is shared, reported live or kept (the caller closes it).
 */
export function isolatedPool(): McpPool {
  return new McpPool({ ...poolOptions(), onStatusChange: undefined, idleTimeoutMs: 0 });
}

function poolOptions(): PoolOptions {
  return {
    launchWrapper: createSandboxWrapper({
      dataDir: dataDir(),
      projectRoot: path.resolve(/*turbopackIgnore: true*/ process.cwd()),
      mode: sandboxMode(),
      limits: sandboxLimitsFromEnv(environment()),
      seccomp: sandboxSeccomp(),
      // One replica per host reaps the host's idle control groups (a lease per host).
      mayReapGroups: () => mayReapOnThisHost(getDb()),
    }),
    // MCP requests over HTTP carry the trace context when tracing is on (docs/telemetry.md).
    fetch: tracedMcpFetch(guardedFetchFromEnv()),
    // …and so do requests to stdio servers, in `params._meta` (SEP-414).
    requestMeta: traceMeta,
    authProvider: sharedAwareAuthProvider(),
    logger: consoleLogger,
    idleTimeoutMs: idleTimeoutMs(),
    pingIntervalMs: pingIntervalMs(),
    limits: engineLimitsFromEnv(environment()),
    samplingMaxTokens: samplingMaxTokensFromEnv(environment()),
    admission: poolAdmission,
    turnWaitMs: Number(turnWaitSecondsSetting()) * 1000 || undefined,
    // Wrapped so a running chat turn can show each exchange in its transcript.
    onElicitation: interactionLog().elicitation(elicitationBroker().handler),
    onSampling: interactionLog().sampling(samplingHost().provider),
    onStatusChange: (status) => {
      connectionLog().record(status);
      publishStatus(status);
    },
    figuresWatched: (userId) => statusEvents().watching(userId),
    // Every tool call, resource read and prompt get, from any path, into the usage records
    // (docs/usage.md). Not awaited: recordMcpRequest queues synchronously and never rejects. With
    // recording off there is no hook, so the engine does not even build the events (their byte
    // counts serialise each call's arguments and result).
    onRequestEnd: usageRecordingOn() ? (event) => void recordMcpRequest(getDb(), event) : undefined,
    // Cluster mode: a stdio server's sandbox runs on one replica at a time, the others relay to it.
    placement: sandboxPlacement(),
  };
}

// A `shared` server's calls use the tokens an owner/admin obtained with Connect for everyone (their
// shared slot, never their own tokens); the connection itself stays the caller's, so elicitations,
// sampling and approvals reach the right person.
function sharedAwareAuthProvider(): AuthProviderFactory {
  const factory = appAuthProviderFactory();
  return async (userId, server) => {
    const account = await credentialAccountFor(getDb(), userId, server);
    if (!account.forEveryone || !server.config.url) return factory(userId, server);
    return providerFor(forEveryoneDeps(appOAuthDeps()), account.userId, server);
  };
}

/** Every server of the caller's workspace as engine definitions for them (secrets decrypted, never returned). */
export async function workspaceServerDefinitions(db: Db, user: { id: string; workspaceId: string }): Promise<ServerDefinition[]> {
  return await cachedServerDefinitions(db, user);
}

/** One server of the caller's workspace as an engine definition for them, or a 404. */
export async function workspaceServerDefinition(db: Db, user: { id: string; workspaceId: string }, id: string): Promise<ServerDefinition> {
  return await cachedServerDefinition(db, user, id);
}

/**
 * A server of any workspace the user is a member of, or null: for the OAuth callback, which
 * arrives from the authorization server without a workspace in the request.
 */
export async function memberServerDefinition(db: Db, userId: string, serverId: string): Promise<ServerDefinition | null> {
  const record = await getServerByIdUnscoped(db, serverId);
  if (!record || !(await getMembershipRole(db, record.workspaceId, userId))) return null;
  return await definitionFor(db, userId, record);
}
