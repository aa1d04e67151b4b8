/**
 * Tool calls as tasks (spec 2025-11-25 "Tasks", docs/protocol.md#tasks): the call returns a task
 * at once, the engine polls `tasks/get` at the server's suggested interval, fetches the outcome
 * with `tasks/result`, and sends `tasks/cancel` when the caller aborts. The SDK v2 has typed
 * methods for none of this, so the requests go through `client.request` with our own schemas.
 */
import {
  ProtocolError as McpError,
  ProtocolErrorCode as RpcErrorCode,
  SdkError,
  SdkErrorCode,
  type CallToolResult,
  type Client,
  type ServerCapabilities,
  type Tool,
} from "@modelcontextprotocol/client";
import { z } from "zod";
import type { Clock } from "./clock";
import type { Era } from "./era";
import type { Logger } from "./logger";
import type { CallOptions } from "./types";

/** What a tool declares about task execution; absent means `forbidden`. */
export type TaskSupport = "required" | "optional" | "forbidden";

/** Bounds on the server's suggested poll interval: no busy loop, no stall on a huge suggestion. */
export const TASK_POLL_BOUNDS_MS = { min: 250, max: 10_000, fallback: 1_000 };
/** How long the server should keep a task's result after it ends (sent as `task.ttl`). */
export const TASK_TTL_MS = 10 * 60_000;
/** Bound on the best-effort `tasks/cancel` sent after an abort. */
const CANCEL_TIMEOUT_MS = 5_000;

const TERMINAL = new Set(["completed", "failed", "cancelled"]);

const taskSchema = z.looseObject({
  taskId: z.string(),
  status: z.string(),
  statusMessage: z.string().optional(),
  pollInterval: z.number().optional(),
  lastUpdatedAt: z.string().optional(),
});
const createTaskSchema = z.looseObject({ task: taskSchema });
const toolResultSchema = z.looseObject({
  content: z.array(z.looseObject({ type: z.string() })).default([]),
  isError: z.boolean().optional(),
});

/** The tool's `execution.taskSupport`. */
export function taskSupportOf(tool: Tool | undefined): TaskSupport {
  const declared = (tool as { execution?: { taskSupport?: unknown } } | undefined)?.execution?.taskSupport;
  return declared === "required" || declared === "optional" ? declared : "forbidden";
}

/**
 * Whether one call goes as a task. Only on a 2025-11-25 session whose server declares
 * `tasks.requests.tools.call`; then `required` always, `optional` only when the caller asks
 * (`CallOptions.asTask`) — a short call gains nothing from polling, and only the caller knows
 * it expects a long one. The 2026-07-28 tasks extension is not negotiated (docs/protocol.md#tasks).
 */
export function shouldCallAsTask(
  support: TaskSupport,
  era: Era | undefined,
  capabilities: ServerCapabilities | undefined,
  asked = false,
): boolean {
  if (era !== "legacy") return false;
  const tasks = (capabilities as { tasks?: { requests?: { tools?: { call?: unknown } } } } | undefined)?.tasks;
  if (!tasks?.requests?.tools?.call) return false;
  return support === "required" || (support === "optional" && asked);
}

/** Clamp a server's suggested poll interval into `TASK_POLL_BOUNDS_MS`. */
export function pollDelay(suggested: number | undefined): number {
  if (suggested === undefined || !Number.isFinite(suggested)) return TASK_POLL_BOUNDS_MS.fallback;
  return Math.min(TASK_POLL_BOUNDS_MS.max, Math.max(TASK_POLL_BOUNDS_MS.min, suggested));
}

/** What `callToolAsTask` needs besides the client. */
export interface TaskCallOptions extends CallOptions {
  /** The call fails when the task shows no change (status or message) for this long. */
  timeoutMs: number;
  clock: Clock;
  logger: Logger;
}

/**
 * Run `tools/call` as a task and return the tool's result. Status changes reach `onProgress`
 * (progress = number of changes seen, message = "status: statusMessage"); an abort or a timeout
 * cancels the task on the server before the error is thrown.
 */
export async function callToolAsTask(
  client: Client,
  params: { name: string; arguments: Record<string, unknown> },
  options: TaskCallOptions,
): Promise<CallToolResult> {
  const rpc = { timeout: options.timeoutMs, signal: options.signal };
  const created = await client.request({ method: "tools/call", params: { ...params, task: { ttl: TASK_TTL_MS } } }, createTaskSchema, rpc);
  let task = created.task;
  const taskId = task.taskId;
  let changes = 0;
  let lastChangeAt = options.clock.now();
  let seen = "";
  const report = () => {
    const now = `${task.status}\u0000${task.statusMessage ?? ""}\u0000${task.lastUpdatedAt ?? ""}`;
    if (now === seen) return;
    seen = now;
    changes++;
    lastChangeAt = options.clock.now();
    const message = task.statusMessage ? `${task.status}: ${task.statusMessage}` : task.status;
    options.onProgress?.({ progress: changes, message });
  };
  try {
    report();
    // `input_required`: `tasks/result` is where the server delivers its queued requests (elicitation,
    // sampling) to our handlers; it returns once the task has ended.
    while (!TERMINAL.has(task.status) && task.status !== "input_required") {
      await sleep(pollDelay(task.pollInterval), options.clock, options.signal);
      task = await client.request({ method: "tasks/get", params: { taskId } }, taskSchema, rpc);
      report();
      if (!TERMINAL.has(task.status) && options.clock.now() - lastChangeAt >= options.timeoutMs) {
        throw new SdkError(SdkErrorCode.RequestTimeout, `task ${taskId} showed no progress for ${options.timeoutMs} ms`);
      }
    }
    if (task.status === "cancelled") throw new McpError(RpcErrorCode.InternalError, `the server cancelled task ${taskId}`);
    // `failed` too: the result is the tool's own error result (or a JSON-RPC error, thrown as such).
    const result = await client.request({ method: "tasks/result", params: { taskId } }, toolResultSchema, {
      signal: options.signal,
      // Blocks while the task runs (and while the user answers its questions); the task's own progress resets it.
      timeout: options.timeoutMs,
      resetTimeoutOnProgress: true,
      onprogress: (progress) => options.onProgress?.(progress),
    });
    return result as CallToolResult;
  } catch (error) {
    if (!TERMINAL.has(task.status)) await cancelTask(client, taskId, options.logger);
    throw error;
  }
}

/** Best effort: the server may already have ended the task, or the link may be gone. */
async function cancelTask(client: Client, taskId: string, logger: Logger): Promise<void> {
  try {
    await client.request({ method: "tasks/cancel", params: { taskId } }, taskSchema, { timeout: CANCEL_TIMEOUT_MS });
  } catch (error) {
    logger.warn("tasks/cancel failed", { taskId, error: String(error) });
  }
}

function sleep(ms: number, clock: Clock, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clock.clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = clock.setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
