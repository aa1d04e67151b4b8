/**
 * Runs the per-server wrapper tools (docs/architecture.md#tools-the-model-sees): list_resources, read_resource, list_prompts and
 * get_prompt, answering in the same outcome shape as a real tool call.
 */
import type { CallToolResult, ReadResourceResult } from "@modelcontextprotocol/client";
import { effectiveSettings } from "./config";
import { EngineError, isEngineError } from "./errors";
import type { ManagedServer } from "./managed-server";
import { toolCallEvent } from "./request-events";
import { errorOutcome, valueResult } from "./results";
import type { CallOptions, RegisteredKind, ToolCallOutcome } from "./types";

/** Run wrapper `kind` with the model's `args`; failures become error outcomes. */
export async function callWrapper(
  managed: ManagedServer,
  kind: Exclude<RegisteredKind, "tool">,
  args: Record<string, unknown>,
  options: CallOptions,
  now: () => number,
): Promise<ToolCallOutcome> {
  const started = now();
  const timeoutMs = effectiveSettings(managed.server.config).timeoutMs;
  let outcome: ToolCallOutcome;
  try {
    const { content, forModel } = await runWrapper(managed, kind, args, { ...options, timeoutMs });
    outcome = { content, forModel: { result: forModel }, isError: false, durationMs: now() - started };
  } catch (error) {
    const engineError = isEngineError(error) ? error : new EngineError("server_error", String(error), { secrets: managed.secrets });
    outcome = errorOutcome(engineError, now() - started);
  }
  managed.record(outcome);
  // Listing is bookkeeping; a read or a get is work the usage records count.
  if (kind === "read_resource" || kind === "get_prompt") {
    const name = String(args[kind === "read_resource" ? "uri" : "name"] ?? "");
    managed.reportRequest(() =>
      toolCallEvent(managed.userId, managed.server, kind === "read_resource" ? "resource" : "prompt", name, args, outcome),
    );
  }
  return outcome;
}

async function runWrapper(
  managed: ManagedServer,
  kind: Exclude<RegisteredKind, "tool">,
  args: Record<string, unknown>,
  options: CallOptions & { timeoutMs: number },
): Promise<{ content: CallToolResult; forModel: unknown }> {
  switch (kind) {
    case "list_resources": {
      const d = await managed.relist("resources");
      const value = { resources: d.resources, resourceTemplates: d.resourceTemplates };
      return { content: valueResult(value), forModel: value };
    }
    case "list_prompts": {
      const d = await managed.relist("prompts");
      const value = { prompts: d.prompts };
      return { content: valueResult(value), forModel: value };
    }
    case "read_resource": {
      const uri = requireString(args, "uri");
      const result = await managed.request((c) => c.readResource(uri, options));
      return { content: resourceContent(result), forModel: resourceForModel(result) };
    }
    case "get_prompt": {
      const name = requireString(args, "name");
      const promptArgs = stringMap(args.arguments);
      const result = await managed.request((c) => c.getPrompt(name, promptArgs, options));
      return { content: valueResult(result), forModel: { description: result.description, messages: result.messages } };
    }
  }
}

function resourceContent(result: ReadResourceResult): CallToolResult {
  return { content: result.contents.map((resource) => ({ type: "resource" as const, resource })) };
}

/** Text resources as their text (joined); anything binary stays as the contents array. */
function resourceForModel(result: ReadResourceResult): unknown {
  const texts = result.contents.map((c) => ("text" in c ? c.text : undefined));
  return texts.every((t) => typeof t === "string") ? texts.join("\n") : result.contents;
}

function requireString(args: Record<string, unknown>, key: string): string {
  const value = args[key];
  if (typeof value !== "string" || !value) throw new EngineError("invalid_arguments", `argument \`${key}\` (a string) is required`);
  return value;
}

function stringMap(value: unknown): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value))
    throw new EngineError("invalid_arguments", "argument `arguments` must be an object of strings");
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]));
}
