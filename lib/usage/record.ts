/**
 * The recording hooks (docs/usage.md#what-is-recorded): one call at each place that does work —
 * a model request of a chat turn or of sampling, an MCP request from any path. Each builds its row
 * (a model request priced now, with the price in force) and queues it; the database write happens
 * in a batch off the request path (db/queries/usage-rows.ts). Recording never throws into the caller.
 */
import type { RequestEndEvent } from "../mcp/types";
import type { Db } from "../../db/client";
import { noteRecording, queueMcpRequest, queueModelRequest, workspaceOfServer } from "../../db/queries/usage-rows";
import { findPrice } from "../../db/queries/usage-settings";
import { type EnvBag, environment } from "../env";
import { redact } from "../redact";
import { costMicros, defaultPrice, providerOf } from "./prices";
import { scheduleRetention } from "./retention";

/** Token usage as the AI SDK reports it (every field may be missing). */
export interface ReportedUsage {
  inputTokens?: number;
  outputTokens?: number;
  inputTokenDetails?: { cacheReadTokens?: number };
  outputTokenDetails?: { reasoningTokens?: number };
}

/** One finished model request. */
export interface ModelUsageEvent {
  userId: string;
  workspaceId: string;
  chatId?: string | null;
  source: "chat" | "sampling";
  /** The AI SDK's provider id (`openai.chat`) or ours (`openai`). */
  provider: string;
  model: string;
  usage?: ReportedUsage;
  latencyMs: number;
  outcome: "ok" | "error" | "aborted";
}

/** Whether recording is on (`SWITCHBOARD_USAGE_RECORDING`, default on; `off` turns it off). */
export function usageRecordingOn(env: EnvBag = environment()): boolean {
  return env.SWITCHBOARD_USAGE_RECORDING !== "off";
}

// The setting as the recording path reads it: from the environment at most once a second. A read
// of process.env goes into the C++ environment store under a lock, and in a profile of
// bench/usage.ts it was a third of recording's cost per tool call.
let setting = { on: true, until: 0 };

function recordingOnNow(): boolean {
  const now = Date.now();
  if (now >= setting.until) setting = { on: usageRecordingOn(), until: now + 1000 };
  return setting.on;
}

const count = (value: number | undefined) => (Number.isFinite(value) && (value as number) > 0 ? Math.round(value as number) : 0);

/** Record one model request: its tokens, and its cost at the price in force for its workspace. */
export function recordModelUsage(db: Db, event: ModelUsageEvent, at: Date = new Date()): Promise<void> {
  if (!recordingOnNow()) return Promise.resolve();
  // Priced after a lookup: noted, so a flush (and the report after it) waits for its row.
  const work = queuePricedModelRequest(db, event, at);
  noteRecording(work);
  return work;
}

async function queuePricedModelRequest(db: Db, event: ModelUsageEvent, at: Date): Promise<void> {
  try {
    const provider = providerOf(event.provider);
    const tokens = {
      inputTokens: count(event.usage?.inputTokens),
      outputTokens: count(event.usage?.outputTokens),
      cachedTokens: count(event.usage?.inputTokenDetails?.cacheReadTokens),
    };
    const price = (await findPrice(db, event.workspaceId, provider, event.model)) ?? defaultPrice(provider, event.model);
    queueModelRequest(db, {
      at,
      userId: event.userId,
      workspaceId: event.workspaceId,
      chatId: event.chatId ?? null,
      source: event.source,
      provider,
      model: event.model,
      ...tokens,
      reasoningTokens: count(event.usage?.outputTokenDetails?.reasoningTokens),
      costMicros: costMicros(tokens, price),
      latencyMs: count(event.latencyMs),
      outcome: event.outcome,
    });
    scheduleRetention(db);
  } catch (error) {
    console.error("[switchboard] usage of a model request not recorded:", redact(String(error)));
  }
}

/**
 * One finished MCP request (the engine's `onRequestEnd` event, or a refusal before the engine); the
 * workspace is known by the caller, else looked up by the server's id.
 */
export type McpRequestEvent = RequestEndEvent & { workspaceId?: string };

// Server id → workspace id: a server never changes workspace, so the lookup is made once per server.
const workspaces = new Map<string, string>();

/** Record one MCP request; a server unknown to this instance (the command line's) is not recorded. */
export function recordMcpRequest(db: Db, event: McpRequestEvent, at?: Date): Promise<void> {
  if (!recordingOnNow()) return Promise.resolve();
  const workspaceId = event.workspaceId ?? workspaces.get(event.serverId);
  // The usual case queues at once; a server seen for the first time is looked up first (noted, so a
  // flush waits for its row).
  // Epoch milliseconds unless given: the queue keeps a number, and a Date per call would be garbage.
  const when = at ?? Date.now();
  if (workspaceId) return queueMcpRow(db, event, workspaceId, when);
  const work = lookUpAndQueueMcpRow(db, event, when);
  noteRecording(work);
  return work;
}

async function lookUpAndQueueMcpRow(db: Db, event: McpRequestEvent, at: Date | number): Promise<void> {
  try {
    const workspaceId = (await workspaceOfServer(db, event.serverId)) ?? undefined;
    if (!workspaceId) return;
    if (workspaces.size > 10_000) workspaces.clear();
    workspaces.set(event.serverId, workspaceId);
    await queueMcpRow(db, event, workspaceId, at);
  } catch (error) {
    console.error("[switchboard] usage of an MCP request not recorded:", redact(String(error)));
  }
}

// Synchronous: the row is in the queue when this returns.
function queueMcpRow(db: Db, event: McpRequestEvent, workspaceId: string, at: Date | number): Promise<void> {
  try {
    queueMcpRequest(db, {
      at,
      userId: event.userId,
      workspaceId,
      serverId: event.serverId,
      serverName: event.serverName,
      kind: event.kind,
      name: event.name,
      durationMs: count(event.durationMs),
      outcome: event.outcome,
      bytesIn: count(event.bytesIn),
      bytesOut: count(event.bytesOut),
    });
    scheduleRetention(db);
  } catch (error) {
    console.error("[switchboard] usage of an MCP request not recorded:", redact(String(error)));
  }
  return Promise.resolve();
}

/** Record a tool call refused by policy before it reached the engine (held for review, `never`, not for apps). */
export async function recordRefusedCall(
  db: Db,
  call: { userId: string; workspaceId?: string; server: { id: string; name: string }; name: string; args?: unknown },
): Promise<void> {
  await recordMcpRequest(db, {
    userId: call.userId,
    workspaceId: call.workspaceId,
    serverId: call.server.id,
    serverName: call.server.name,
    kind: "tool",
    name: call.name,
    durationMs: 0,
    outcome: "refused",
    bytesIn: 0,
    bytesOut: 0,
  });
}
