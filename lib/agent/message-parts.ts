/**
 * Pure conversions between stored chat messages and what the model sees: data parts (attached
 * resources, prompts) become text for the model; progress parts are UI-only.
 */
import type { DataUIPart, TextPart } from "ai";
import { stripInvisible, wrapUntrustedBlock } from "../trust/untrusted-text";
import type { ChatDataParts, ChatMessage, PromptData, ResourceData } from "../domain/chat-message";
import { appContextText } from "./app-context";

/** Most characters of one attached resource or prompt put into the model's context. */
export const MAX_CONTEXT_CHARS = 100_000;

function clip(text: string): string {
  return text.length > MAX_CONTEXT_CHARS ? `${text.slice(0, MAX_CONTEXT_CHARS)}\n[truncated]` : text;
}

/** The model's text for an attached resource: a delimited block of untrusted data from the named server. */
export function resourceContextText(data: ResourceData): string {
  const label = [data.name, data.mimeType].filter(Boolean).join(", ");
  return wrapUntrustedBlock(data.serverName, `Attached resource ${data.uri}${label ? ` (${label})` : ""}:`, clip(data.text));
}

/**
 * The model's text for a prompt run as a slash command. The user chose to run it, so it stays
 * instructions, but without invisible characters and with the server named.
 */
export function promptContextText(data: PromptData): string {
  const body = data.messages.map((m) => (data.messages.length > 1 ? `[${m.role}] ${m.text}` : m.text)).join("\n\n");
  return clip(`Prompt "${stripInvisible(data.name)}" from server "${stripInvisible(data.serverName)}":\n${stripInvisible(body)}`);
}

/** `convertDataPart` for convertToModelMessages: resources and prompts as text, the rest dropped. */
export function dataPartToModel(part: DataUIPart<ChatDataParts>): TextPart | undefined {
  if (part.type === "data-resource") return { type: "text", text: resourceContextText(part.data) };
  if (part.type === "data-prompt") return { type: "text", text: promptContextText(part.data) };
  if (part.type === "data-appContext") return { type: "text", text: appContextText(part.data) };
  return undefined;
}

/** Names of every tool called in the messages (for history conversion). */
export function toolNamesIn(messages: ChatMessage[]): Set<string> {
  const names = new Set<string>();
  for (const message of messages) for (const part of message.parts) if (part.type === "dynamic-tool") names.add(part.toolName);
  return names;
}

/** A chat title from a user message: its first line of text, shortened. */
export function titleFrom(message: ChatMessage): string | undefined {
  for (const part of message.parts) {
    const text = part.type === "text" ? part.text : part.type === "data-prompt" ? `/${part.data.name}` : "";
    const line = text.replace(/\s+/g, " ").trim();
    if (line) return line.length > 60 ? `${line.slice(0, 57)}…` : line;
  }
  return undefined;
}

/** Plain text of a message's text parts (for tests and previews). */
export function textOf(message: ChatMessage): string {
  return message.parts.map((p) => (p.type === "text" ? p.text : "")).join("");
}
