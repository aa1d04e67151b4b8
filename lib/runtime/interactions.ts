/**
 * What servers asked the user during a chat turn (elicitations, sampling) and what came of it, so
 * the transcript can show each exchange where it happened (docs/chat.md#in-the-transcript). The
 * engine's handlers are wrapped; a running turn subscribes for its user. Values of fields that look
 * like secrets are masked and every text is redacted before it leaves this module.
 */
import type { ElicitResult } from "@modelcontextprotocol/client";
import type { InteractionData } from "../domain/chat-message";
import type { ElicitationHandler, SamplingProvider } from "../mcp";
import { redactForDisplay } from "../redact";
import { singleton } from "../singleton";
import { secretLookingFields } from "./elicitation-checks";

type Listener = (data: InteractionData) => void;

/** Per-user listeners of finished exchanges. */
export class InteractionLog {
  private readonly listeners = new Map<string, Set<Listener>>();

  /** Follow `userId`'s exchanges until the returned function is called. */
  subscribe(userId: string, listener: Listener): () => void {
    const set = this.listeners.get(userId) ?? new Set();
    set.add(listener);
    this.listeners.set(userId, set);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(userId);
    };
  }

  /** Tell `userId`'s listeners about one finished exchange. */
  emit(userId: string, data: InteractionData): void {
    for (const listener of this.listeners.get(userId) ?? []) listener(data);
  }

  /** The engine's elicitation handler, reporting each answer here. */
  elicitation(handler: ElicitationHandler): ElicitationHandler {
    return async (userId, server, params, signal) => {
      const result = await handler(userId, server, params, signal);
      const schema = params.mode === "url" ? undefined : (params as { requestedSchema?: Record<string, unknown> }).requestedSchema;
      this.emit(userId, {
        kind: "elicitation",
        serverId: server.id,
        serverName: server.name,
        asked: redactForDisplay(params.message, [], 1000),
        outcome: result.action,
        answer: maskedContent(result, secretLookingFields(schema)),
      });
      return result;
    };
  }

  /** The engine's sampling provider, reporting each outcome here (a refusal is reported, then rethrown). */
  sampling(provider: SamplingProvider): SamplingProvider {
    return async (userId, server, request, signal) => {
      const last = request.params.messages.at(-1);
      const asked = last?.content && "text" in last.content && typeof last.content.text === "string" ? last.content.text : "";
      const base = { kind: "sampling" as const, serverId: server.id, serverName: server.name, asked: redactForDisplay(asked, [], 1000) };
      try {
        const response = await provider(userId, server, request, signal);
        const content = response.result.content;
        const text = !Array.isArray(content) && content.type === "text" ? content.text : "[non-text answer]";
        this.emit(userId, { ...base, outcome: "accept", answer: redactForDisplay(text, [], 1000) });
        return response;
      } catch (error) {
        this.emit(userId, {
          ...base,
          outcome: "decline",
          answer: redactForDisplay(error instanceof Error ? error.message : String(error), [], 300),
        });
        throw error;
      }
    };
  }
}

/** An elicitation answer as shown in the transcript: field = value, secrets as dots. */
export function maskedContent(result: ElicitResult, secretFields: string[]): string {
  if (result.action !== "accept" || !result.content) return "";
  return Object.entries(result.content)
    .map(
      ([name, value]) =>
        `${name}: ${secretFields.includes(name) ? "••••••" : redactForDisplay(Array.isArray(value) ? value.join(", ") : String(value), [], 300)}`,
    )
    .join("\n");
}

/** The process-wide log. */
export function interactionLog(): InteractionLog {
  return singleton("host.interactions", () => new InteractionLog());
}
