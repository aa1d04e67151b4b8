/**
 * The AI SDK callbacks that record each model request of one `streamText` run (a chat turn or a
 * sampling request): spread into its options, they record the tokens the provider reported when a
 * call ends, and an error or abort with no tokens when it does not.
 */
import type { Db } from "../../db/client";
import { type ModelUsageEvent, type ReportedUsage, recordModelUsage } from "./record";

/** Who a run's model requests are recorded for. */
export type ModelCallContext = Pick<ModelUsageEvent, "userId" | "workspaceId" | "chatId" | "source">;

/** `streamText` callbacks recording every model request of the run (requests of one run never overlap). */
export function modelUsageCallbacks(db: Db, context: ModelCallContext) {
  let open: { provider: string; model: string; started: number } | null = null;
  const close = async (outcome: ModelUsageEvent["outcome"]) => {
    const call = open;
    if (!call) return;
    // Cleared before the await: the next request's start may come while this one is recorded.
    open = null;
    await recordModelUsage(db, { ...context, provider: call.provider, model: call.model, latencyMs: Date.now() - call.started, outcome });
  };
  return {
    onLanguageModelCallStart: (event: { provider: string; modelId: string }) => {
      open = { provider: event.provider, model: event.modelId, started: Date.now() };
    },
    onLanguageModelCallEnd: async (event: {
      provider: string;
      modelId: string;
      finishReason: string;
      usage: ReportedUsage;
      performance?: { responseTimeMs?: number };
    }) => {
      const started = open?.started ?? Date.now();
      open = null;
      await recordModelUsage(db, {
        ...context,
        provider: event.provider,
        model: event.modelId,
        usage: event.usage,
        latencyMs: event.performance?.responseTimeMs ?? Date.now() - started,
        outcome: event.finishReason === "error" ? "error" : "ok",
      });
    },
    onStepError: async () => await close("error"),
    onAbort: async () => await close("aborted"),
  };
}
