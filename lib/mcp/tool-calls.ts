/**
 * A call of one of the server's own tools through its pool entry: queued under the server's
 * `parallel` cap, timed, checked against what the server lists, and counted in its status.
 * Failures become error outcomes; nothing here throws.
 */
import { effectiveSettings } from "./config";
import { EngineError } from "./errors";
import type { ManagedServer } from "./managed-server";
import { toolCallEvent } from "./request-events";
import { errorOutcome, outcomeOf } from "./results";
import type { CallOptions, ToolCallOutcome } from "./types";

/** Call the raw tool `rawName` of `managed`'s server. */
export async function callServerTool(
  managed: ManagedServer,
  rawName: string,
  args: Record<string, unknown>,
  options: CallOptions,
  now: () => number,
): Promise<ToolCallOutcome> {
  const started = now();
  const { server } = managed;
  const { timeoutMs, maxTotalTimeoutMs } = effectiveSettings(server.config);
  let outcome: ToolCallOutcome;
  try {
    const result = await managed.run((c) => {
      if (!managed.registered().some((t) => t.kind === "tool" && t.rawName === rawName)) {
        throw new EngineError("not_found", `server "${server.name}" has no enabled tool "${rawName}"`);
      }
      return c.callTool(rawName, args, { ...options, timeoutMs, maxTotalTimeoutMs });
    }, true);
    outcome = outcomeOf(result, now() - started, managed.secrets);
  } catch (error) {
    outcome = errorOutcome(managed.asEngineError(error), now() - started);
  }
  managed.record(outcome);
  managed.reportRequest(() => toolCallEvent(managed.userId, server, "tool", rawName, args, outcome));
  return outcome;
}
