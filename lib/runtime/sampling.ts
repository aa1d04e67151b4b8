/**
 * The web app's answer to servers' sampling requests: the model the user chats with in the
 * server's workspace, with a human in the loop — the user sees the request (and may edit or deny
 * it) and reviews the answer before it goes back (docs/architecture.md#sampling-and-elicitation).
 * `sampling.review: false` skips both reviews where the instance allows it (sampling-access.ts).
 */
import { streamText } from "ai";
import { ProtocolError as McpError } from "@modelcontextprotocol/client";
import { getDb } from "../../db/client";
import type { SamplingProvider } from "../mcp";
import { createLanguageModel, type ProviderFetch } from "../models/model";
import { guardedFetchFromEnv } from "../net";
import { logModelError } from "./model-error-log";
import { PendingRequests } from "./pending-requests";
import { type QuestionDesk, questionDesk } from "./question-desk";
import { samplingAccess } from "./sampling-access";
import {
  offeredTools,
  samplingResult,
  samplingSystemPrompt,
  serverPromptMessage,
  textOf,
  toModelMessages,
  type ModelToolCall,
  type OfferedToolSet,
} from "./sampling-messages";
import { singleton } from "../singleton";
import { AppError } from "../errors";
import { assertWithinBudget } from "../usage/budgets";
import { modelUsageCallbacks } from "../usage/model-calls";
import { type ModelCallParent, tracedModel } from "../telemetry/model-call";
import { tracedSampling } from "../telemetry/sampling";

/** How long a review waits for its user before the request is denied (ms). */
export const SAMPLING_REVIEW_TTL_MS = 5 * 60_000;

/** What the browser shows of a sampling request or its answer. */
export interface SamplingReviewView {
  id: string;
  serverId: string;
  serverName: string;
  stage: "request" | "answer";
  systemPrompt?: string;
  messages: { role: string; text: string }[];
  maxTokens: number;
  model: string;
  /** The model's answer text (stage "answer"). */
  answer?: string;
  /** The model's calls of the offered tools (stage "answer"): they go back to the server, which runs them. */
  toolCalls?: { name: string; input: Record<string, unknown> }[];
  /** The server's own tools it offers the model in this request (the server runs them, not Switchboard). */
  tools?: { name: string; description?: string }[];
  createdAt: number;
}

/** The user's decision: approve (optionally with edited text) or deny. */
export type SamplingReviewAnswer = { action: "approve"; text?: string } | { action: "deny" };

// JSON-RPC error the spec suggests when the user declines a sampling request.
const USER_REJECTED = -1;

/**
 * One completion, streamed (the same wire path as the chat, which every provider and our scripted
 * test model speak), collected into text and tool calls; a stream error is thrown, never returned as text.
 */
async function complete(options: Parameters<typeof streamText>[0], offered: OfferedToolSet | undefined) {
  let text = "";
  let finishReason = "stop";
  let usage: { inputTokens?: number; outputTokens?: number } = {};
  const calls: ModelToolCall[] = [];
  // The error reaches the caller through the stream; the log gets one line per kind, not a stack each.
  const onError = ({ error }: { error: unknown }) => void logModelError("sampling model request", error);
  for await (const part of streamText({ ...options, onError }).fullStream) {
    if (part.type === "text-delta") text += part.text;
    else if (part.type === "tool-call") {
      const name = offered?.serverName.get(part.toolName) ?? part.toolName;
      calls.push({ id: part.toolCallId, name, input: (part.input ?? {}) as Record<string, unknown> });
    } else if (part.type === "error") throw part.error instanceof Error ? part.error : new Error(String(part.error));
    else if (part.type === "finish") {
      finishReason = part.finishReason;
      usage = { inputTokens: part.totalUsage.inputTokens, outputTokens: part.totalUsage.outputTokens };
    }
  }
  return { text, finishReason, usage, calls };
}

/** Sampling reviews waiting for their users, and the provider the pool calls. */
export class SamplingHost {
  readonly reviews = new PendingRequests<Omit<SamplingReviewView, "id" | "createdAt">, SamplingReviewAnswer>(
    SAMPLING_REVIEW_TTL_MS,
    { action: "deny" },
    { action: "deny" },
  );

  /** With a `desk`, each review is also a row any replica lists and answers (the app's host). */
  constructor(desk?: QuestionDesk) {
    desk?.attach("sampling", this.reviews);
  }

  /** The engine's `onSampling`: each request a `sampling/createMessage` span, its model call a `chat` span under it. */
  readonly provider: SamplingProvider = (userId, server, request, signal) =>
    tracedSampling(request.params._meta, (trace) => this.answer(userId, server, request, signal, trace));

  private async answer(
    userId: string,
    server: Parameters<SamplingProvider>[1],
    request: Parameters<SamplingProvider>[2],
    signal: AbortSignal,
    trace: ModelCallParent,
  ): ReturnType<SamplingProvider> {
    // The chat's model for this workspace (the workspace default included) and the review rule.
    const access = await samplingAccess(getDb(), userId, server);
    if (!access.ok) throw new McpError(USER_REJECTED, access.reason);
    // A used-up monthly budget refuses sampling as it refuses new chat turns (docs/usage.md#budgets).
    try {
      await assertWithinBudget(getDb(), userId, access.workspaceId);
    } catch (error) {
      if (error instanceof AppError) throw new McpError(USER_REJECTED, `${error.code}: ${error.message}`);
      throw error;
    }
    const modelId = request.model ?? access.model.model;
    if (request.allowedModels.length && !request.allowedModels.includes(modelId)) {
      throw new McpError(USER_REJECTED, `model "${modelId}" is not in this server's allowed_models`);
    }
    const { params } = request;
    const { review } = access;
    const base = {
      serverId: server.id,
      serverName: server.name,
      systemPrompt: params.systemPrompt,
      maxTokens: request.maxTokens,
      model: modelId,
    };
    const messages = params.messages.map((m) => ({ role: m.role, text: textOf(m) }));
    const offered = offeredTools(params);
    const tools = offered ? params.tools?.map((t) => ({ name: t.name, description: t.description })) : undefined;

    let edited: string | undefined;
    if (review) {
      const decision = await this.reviews.wait(userId, { ...base, stage: "request", messages, tools }, signal);
      if (decision.action === "deny") throw new McpError(USER_REJECTED, "The user declined the sampling request.");
      if (decision.text !== undefined && decision.text !== messages.at(-1)?.text) edited = decision.text;
    }

    const fetch = guardedFetchFromEnv() as unknown as ProviderFetch;
    const generated = await complete(
      {
        model: tracedModel(createLanguageModel({ ...access.model, model: modelId }, fetch), trace),
        // The server's system prompt is its data, never the system prompt (docs/tool-trust.md).
        system: samplingSystemPrompt(server.name),
        messages: [...serverPromptMessage(server.name, params.systemPrompt), ...toModelMessages(params.messages, edited, offered)],
        maxOutputTokens: request.maxTokens,
        temperature: params.temperature,
        stopSequences: params.stopSequences,
        ...(offered ? { tools: offered.tools, toolChoice: offered.toolChoice } : {}),
        abortSignal: signal,
        ...modelUsageCallbacks(getDb(), { userId, workspaceId: access.workspaceId, chatId: null, source: "sampling" }),
      },
      offered,
    );

    let text = generated.text;
    if (review) {
      const toolCalls = offered ? generated.calls.map(({ name, input }) => ({ name, input })) : undefined;
      // The second step shows the request as it was sent: with the user's edit, not the server's original.
      const sent = edited === undefined ? messages : [...messages.slice(0, -1), { ...messages.at(-1)!, text: edited }];
      const view = { ...base, stage: "answer" as const, messages: sent, tools, answer: text, toolCalls };
      const decision = await this.reviews.wait(userId, view, signal);
      if (decision.action === "deny") throw new McpError(USER_REJECTED, "The user declined to send the answer back.");
      // The edit replaces the text; the tool calls go back as the model made them.
      text = decision.text ?? text;
    }
    return { result: samplingResult(modelId, text, generated.finishReason, generated.calls), usage: generated.usage };
  }
}

/** The process-wide sampling host: its reviews wait on this replica's connections and are rows of the question desk. */
export function samplingHost(): SamplingHost {
  return singleton("host.sampling", () => new SamplingHost(questionDesk()));
}
