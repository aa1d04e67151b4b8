/**
 * Sampling with tools (spec 2025-11-25 "Sampling", tools and toolChoice): the server offers its own
 * tools in `sampling/createMessage`, the model may answer with `tool_use` blocks, and the SERVER
 * runs them and asks again with the results — the host never executes them. Each new round
 * repeats the conversation so far, so the rounds already run are counted from the history.
 */
import type { CreateMessageRequest, CreateMessageResult } from "@modelcontextprotocol/client";

type Block = { type: string };

function blocksOf(content: unknown): Block[] {
  const list = Array.isArray(content) ? content : [content];
  return list.filter((b): b is Block => typeof b === "object" && b !== null && typeof (b as Block).type === "string");
}

/** Whether the request offers the model tools (a tool-bearing round). */
export function offersTools(params: CreateMessageRequest["params"]): boolean {
  const tools = (params as { tools?: unknown }).tools;
  return Array.isArray(tools) && tools.length > 0;
}

/** Tool rounds already run in this conversation: assistant turns that carry `tool_use`. */
export function toolRoundsSoFar(params: CreateMessageRequest["params"]): number {
  return params.messages.filter((m) => m.role === "assistant" && blocksOf(m.content).some((b) => b.type === "tool_use")).length;
}

/** `tool_use` blocks in a sampling answer (the audit's tool-use count). */
export function toolUsesIn(result: CreateMessageResult): number {
  return blocksOf(result.content).filter((b) => b.type === "tool_use").length;
}

/**
 * Why a tool-bearing round is refused, or null: `max_tool_rounds` 0 disables tools in sampling,
 * and a conversation that already ran that many tool rounds gets no further one.
 */
export function toolRoundRefusal(params: CreateMessageRequest["params"], maxToolRounds: number): string | null {
  if (!offersTools(params)) return null;
  if (maxToolRounds === 0) return "tool use inside sampling is disabled for this server (max_tool_rounds: 0)";
  const rounds = toolRoundsSoFar(params);
  if (rounds >= maxToolRounds) return `sampling tool rounds exhausted: ${rounds} already run (max_tool_rounds: ${maxToolRounds})`;
  return null;
}
