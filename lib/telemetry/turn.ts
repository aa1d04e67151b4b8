/**
 * The span of one chat turn (`invoke_agent switchboard`, GenAI agent conventions): the parent of
 * the turn's model calls, each of which parents the MCP tool calls it asked for. It outlives the
 * HTTP request that started it (the answer streams on) and ends when the turn does.
 */
import type { Context } from "@opentelemetry/api";
import type { LanguageModel } from "ai";
import { type ModelCallParent, providerName, tracedModel } from "./model-call";
import { modelLabel } from "./metrics";
import { contextWith, endSpan, SpanKind, startSpan } from "./spans";

/** One turn's telemetry: the model to run (traced and counted), the tool calls' parent, and the end. */
export interface TurnTelemetry {
  model: LanguageModel;
  /** The context a tool call of this turn starts in: the model call that asked for it (else the turn). */
  toolParent(): Context | undefined;
  end(error?: unknown): void;
}

/** Start the turn's span under the active context (the request's span) for the chat `chatId`. */
export function startTurnTelemetry(model: LanguageModel, chatId: string): TurnTelemetry {
  const modelId = typeof model === "string" ? model : model.modelId;
  const span = startSpan("invoke_agent switchboard", {
    kind: SpanKind.INTERNAL,
    attributes: {
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "switchboard",
      "gen_ai.conversation.id": chatId,
      "gen_ai.request.model": modelLabel(modelId),
      ...(typeof model === "string" ? {} : { "gen_ai.provider.name": providerName(model.provider) }),
    },
  });
  const turnContext = span ? contextWith(span) : undefined;
  const parent: ModelCallParent = { context: () => turnContext };
  let ended = false;
  return {
    model: tracedModel(model, parent),
    toolParent: () => parent.lastCall ?? turnContext,
    end(error) {
      if (ended) return;
      ended = true;
      endSpan(span, error);
    },
  };
}
