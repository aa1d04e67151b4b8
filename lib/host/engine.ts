/**
 * The web app's wiring of the MCP engine: one pool per process with the stdio sandbox, the SSRF
 * guard on every HTTP transport fetch, and a redacting log sink. Routes and the agent use this;
 * the command line builds its own pool (no sandbox, loopback allowed: it runs as the local user).
 */
import "server-only";
import path from "node:path";
import { closeGlobalPool, getPool, type McpPool, type PoolOptions, type ServerDefinition } from "../mcp";
import { createSandboxWrapper } from "../mcp/sandbox";
import { guardedFetchFromEnv } from "../net";
import { dataDir } from "../env";
import type { Db } from "../../db/client";
import { getServerById, listServersByWorkspace, toServerDefinition } from "../../db/queries/servers";
import { AppError } from "../errors";
import { consoleLogger } from "./console-logger";
import { elicitationBroker } from "./elicitations";
import { samplingHost } from "./sampling";
import { appAuthProviderFactory } from "../oauth/app-deps";
import { closeOnSignals } from "./shutdown";

/** How long an unused connection stays open (`SWITCHBOARD_MCP_IDLE_MINUTES`, default 30; 0 = never). */
function idleTimeoutMs(): number {
  const minutes = Number(process.env.SWITCHBOARD_MCP_IDLE_MINUTES ?? 30);
  return Number.isFinite(minutes) && minutes > 0 ? minutes * 60_000 : 0;
}

const slot = globalThis as { __switchboardAppPool?: McpPool };

/** The process-wide pool, created on first use with the app's sandbox, SSRF guard and logger. */
export function appPool(): McpPool {
  // Built once: the options (sandbox wrapper, guarded fetch with its connection cache) must not be
  // rebuilt on every request only to be ignored by an existing pool.
  slot.__switchboardAppPool ??= getPool(poolOptions());
  // The app's start-up of the engine: no sandboxed child may outlive the server process.
  closeOnSignals(closeGlobalPool);
  return slot.__switchboardAppPool;
}

function poolOptions(): PoolOptions {
  return {
    launchWrapper: createSandboxWrapper({
      dataDir: dataDir(),
      projectRoot: path.resolve(/*turbopackIgnore: true*/ process.cwd()),
      mode: process.env.SWITCHBOARD_SANDBOX === "off" ? "off" : "required",
    }),
    fetch: guardedFetchFromEnv(),
    authProvider: appAuthProviderFactory(),
    logger: consoleLogger,
    idleTimeoutMs: idleTimeoutMs(),
    maxMessageBytes: Number(process.env.SWITCHBOARD_MCP_MAX_MESSAGE_BYTES) || undefined,
    onElicitation: elicitationBroker().handler,
    onSampling: samplingHost().provider,
  };
}

/** Every server of the user's workspace as engine definitions (secrets decrypted, never returned). */
export function workspaceServerDefinitions(db: Db, user: { workspaceId: string }): ServerDefinition[] {
  return listServersByWorkspace(db, user.workspaceId).map((record) => toServerDefinition(db, record));
}

/** One server of the user's workspace as an engine definition, or a 404. */
export function workspaceServerDefinition(db: Db, user: { workspaceId: string }, id: string): ServerDefinition {
  const record = getServerById(db, { id, workspaceId: user.workspaceId });
  if (!record) throw new AppError("not_found", "No such server.");
  return toServerDefinition(db, record);
}
