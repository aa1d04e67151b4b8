/**
 * Model calls as GenAI client spans (`chat <model>`, OpenTelemetry GenAI semantic conventions) and
 * as metrics, through an AI SDK middleware: provider, requested and answering model, finish
 * reason and the tokens the provider reported. No prompt or completion is put on a span.
 */
import type { Context, Span } from "@opentelemetry/api";
import { type LanguageModel, type LanguageModelMiddleware, wrapLanguageModel } from "ai";
import { countModelCall, modelLabel } from "./metrics";
import { contextWith, endSpan, SpanKind, startSpan } from "./spans";

// The provider-level types, as the AI SDK's middleware hands them over.
type StreamCall = Parameters<NonNullable<LanguageModelMiddleware["wrapStream"]>>[0];
type LanguageModelV4 = StreamCall["model"];
type LanguageModelV4StreamPart = Awaited<ReturnType<StreamCall["doStream"]>>["stream"] extends ReadableStream<infer P> ? P : never;

/** Where the model spans of one turn hang, and the last one started (the parent of the tool calls it asked for). */
export interface ModelCallParent {
  context(): Context | undefined;
  lastCall?: Context;
}

/** `gen_ai.provider.name` from an AI SDK provider id (`openai.chat` → `openai`, `google.generative-ai` → `gcp.gemini`). */
export function providerName(provider: string): string {
  const base = provider.split(".")[0];
  if (base === "google") return "gcp.gemini";
  if (base === "vertex") return "gcp.vertex_ai";
  if (base === "bedrock" || base === "amazon-bedrock") return "aws.bedrock";
  if (base === "azure") return "azure.ai.openai";
  return base;
}

/** The model wrapped so each of its calls is a span under `parent` and counted; a model named by a bare id string is left as it is. */
export function tracedModel(model: LanguageModel, parent: ModelCallParent): LanguageModel {
  if (typeof model === "string") return model;
  return wrapLanguageModel({
    model,
    middleware: {
      specificationVersion: "v4",
      wrapStream: async ({ doStream, params, model: inner }) => {
        const call = startModelCall(inner, params.maxOutputTokens, params.temperature, parent);
        try {
          const result = await doStream();
          return { ...result, stream: result.stream.pipeThrough(call.watch()) };
        } catch (error) {
          call.end(error);
          throw error;
        }
      },
      wrapGenerate: async ({ doGenerate, params, model: inner }) => {
        const call = startModelCall(inner, params.maxOutputTokens, params.temperature, parent);
        try {
          const result = await doGenerate();
          call.finish(result.usage.inputTokens.total, result.usage.outputTokens.total, result.finishReason.unified);
          call.end();
          return result;
        } catch (error) {
          call.end(error);
          throw error;
        }
      },
    },
  });
}

function startModelCall(model: LanguageModelV4, maxTokens: number | undefined, temperature: number | undefined, parent: ModelCallParent) {
  const provider = providerName(model.provider);
  const span: Span | undefined = startSpan(`chat ${modelLabel(model.modelId)}`, {
    kind: SpanKind.CLIENT,
    parent: parent.context(),
    attributes: {
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": provider,
      "gen_ai.request.model": modelLabel(model.modelId),
      ...(maxTokens === undefined ? {} : { "gen_ai.request.max_tokens": maxTokens }),
      ...(temperature === undefined ? {} : { "gen_ai.request.temperature": temperature }),
    },
  });
  if (span) parent.lastCall = contextWith(span, parent.context());
  let usage: { input?: number; output?: number } = {};
  let ended = false;
  const call = {
    finish(input: number | undefined, output: number | undefined, reason: string) {
      usage = { input, output };
      if (!span) return;
      if (input !== undefined) span.setAttribute("gen_ai.usage.input_tokens", input);
      if (output !== undefined) span.setAttribute("gen_ai.usage.output_tokens", output);
      span.setAttribute("gen_ai.response.finish_reasons", [reason]);
    },
    end(error?: unknown, errorType?: string) {
      if (ended) return;
      ended = true;
      const failed = error !== undefined || errorType !== undefined;
      countModelCall({ provider, model: model.modelId, ok: !failed, inputTokens: usage.input, outputTokens: usage.output });
      endSpan(span, error, errorType);
    },
    /** A pass-through of the answer's stream that reads its metadata and usage as they go by. */
    watch() {
      // `cancel` (Stop: the reader gave up on the answer) is in the Streams standard and Node, not yet in TypeScript's lib.
      const transformer: Transformer<LanguageModelV4StreamPart, LanguageModelV4StreamPart> & { cancel?: () => void } = {
        transform(part, controller) {
          if (part.type === "response-metadata") {
            if (part.modelId) span?.setAttribute("gen_ai.response.model", modelLabel(part.modelId));
            if (part.id) span?.setAttribute("gen_ai.response.id", part.id.slice(0, 128));
          } else if (part.type === "finish") {
            call.finish(part.usage.inputTokens.total, part.usage.outputTokens.total, part.finishReason.unified);
          } else if (part.type === "error") {
            call.end(undefined, "model_error");
          }
          controller.enqueue(part);
        },
        flush: () => call.end(),
        cancel: () => call.end(undefined, "cancelled"),
      };
      return new TransformStream(transformer);
    },
  };
  return call;
}
