/**
 * What the UI and the status stream see of one (user, server): a pure projection of the entry's
 * lifecycle state and facts (live connection or what the last one left behind). Nothing here
 * connects or changes anything; `ManagedServer.status()` gathers the facts and calls it.
 */
import type { Connection } from "./connection";
import type { Discovered } from "./discovery";
import type { EngineError } from "./errors";
import type { LimitCounters } from "./limits";
import type { UnnamedTool } from "./registry";
import { StepUpRequiredError } from "./step-up";
import type { CallMetrics, ServerState, ServerStatus } from "./types";
import type { SamplingAudit } from "./sampling";

/** What a connection that closed leaves for the status (its pid, session, stderr and limit counters). */
export interface LastConnection {
  pid: number | null;
  sessionId: string | null;
  stderr: string;
  limits: LimitCounters | null;
}

/** Everything the status is derived from. */
export interface StatusFacts {
  userId: string;
  server: { id: string; name: string };
  state: ServerState;
  connection: Connection | null;
  last: LastConnection;
  lastError: EngineError | null;
  discovered: Discovered | null;
  registrations: UnnamedTool[];
  metrics: CallMetrics;
  sampling: SamplingAudit;
  reconnect: { attempt: number; at: number | null };
}

/** The facts of a connection worth keeping once it is gone. */
export function lastOf(connection: Connection): LastConnection {
  return { pid: connection.pid, sessionId: connection.sessionId, stderr: connection.stderrTail(), limits: connection.limitCounters() };
}

/** The status snapshot of one entry. */
export function projectStatus(facts: StatusFacts): ServerStatus {
  const { state, lastError, reconnect } = facts;
  const d = facts.discovered;
  const c = facts.connection;
  return {
    userId: facts.userId,
    serverId: facts.server.id,
    serverName: facts.server.name,
    state,
    transport: c?.kind ?? null,
    lastError: lastError ? { code: lastError.code, message: lastError.message } : null,
    stepUp: state === "needs_authorization" && lastError instanceof StepUpRequiredError ? { scope: lastError.scope } : null,
    counts: {
      // What the tool list shows: the server's tools after the config's include/exclude filter
      // (the resource/prompt helper tools are listed and counted apart, in the UI).
      tools: d ? facts.registrations.filter((t) => t.kind === "tool").length : 0,
      resources: d?.resources.length ?? 0,
      resourceTemplates: d?.resourceTemplates.length ?? 0,
      prompts: d?.prompts.length ?? 0,
    },
    metrics: facts.metrics,
    sampling: facts.sampling,
    stderrTail: c ? c.stderrTail() : facts.last.stderr,
    serverInfo: c ? (c.client.getServerVersion() ?? null) : null,
    protocol: c?.era ? { era: c.era, version: c.protocolVersion } : null,
    reconnect: state === "reconnecting" && reconnect.at !== null ? { attempt: reconnect.attempt, at: reconnect.at } : null,
    pid: c?.pid ?? null,
    sessionId: c?.sessionId ?? null,
    limits: c ? c.limitCounters() : facts.last.limits,
    refusedTools: d?.refusedTools ?? [],
  };
}

/** What a live connection negotiated (capabilities, instructions), or null without one. */
export function detailsOf(connection: Connection | null): { capabilities: Record<string, unknown>; instructions: string | null } | null {
  if (!connection) return null;
  return {
    capabilities: (connection.client.getServerCapabilities() ?? {}) as Record<string, unknown>,
    instructions: connection.instructions ?? null,
  };
}
