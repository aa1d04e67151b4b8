/**
 * `completion/complete` for a resource template's variables and a prompt's arguments: the
 * reference must name something the server listed (a template exactly as listed, one of its
 * variables; a listed prompt), and the suggestions that come back are bounded untrusted strings.
 */
import { UriTemplate, type CompleteRequest, type CompleteResult, type ServerCapabilities } from "@modelcontextprotocol/client";
import type { Discovered } from "./discovery";
import { EngineError } from "./errors";

/** Spec 2025-11-25: a completion answer carries at most 100 values. */
export const MAX_COMPLETION_VALUES = 100;
/** Longest suggestion kept; longer ones are dropped, not cut (a cut value would be a wrong value). */
export const MAX_COMPLETION_LENGTH = 1000;

type Ref = CompleteRequest["params"]["ref"];

/** The variable names of a URI template (RFC 6570), as the SDK parses them. */
export function templateVariables(uriTemplate: string): string[] {
  return new UriTemplate(uriTemplate).variableNames;
}

/**
 * Check a completion request against what the server listed and declared; throws `not_found`
 * for an unknown template, variable or prompt, and `invalid_arguments` when the server offers no
 * completions at all.
 */
export function checkCompletionRef(
  serverName: string,
  capabilities: ServerCapabilities | undefined,
  discovered: Discovered,
  ref: Ref,
  argument: string,
): void {
  if (!capabilities?.completions) {
    throw new EngineError("invalid_arguments", `server "${serverName}" does not offer completions`);
  }
  if (ref.type === "ref/resource") {
    const template = discovered.resourceTemplates.find((t) => t.uriTemplate === ref.uri);
    if (!template) throw new EngineError("not_found", `server "${serverName}" lists no resource template "${ref.uri}"`);
    if (!templateVariables(template.uriTemplate).includes(argument)) {
      throw new EngineError("not_found", `resource template "${ref.uri}" has no variable "${argument}"`);
    }
    return;
  }
  if (!discovered.prompts.some((p) => p.name === ref.name)) {
    throw new EngineError("not_found", `server "${serverName}" has no prompt "${ref.name}"`);
  }
}

/** The server's answer with its values bounded (count and length) and `total`/`hasMore` kept honest. */
export function boundCompletion(result: CompleteResult): CompleteResult {
  const all = result.completion.values.filter((v) => typeof v === "string" && v.length <= MAX_COMPLETION_LENGTH);
  const values = all.slice(0, MAX_COMPLETION_VALUES);
  const cut = all.length > values.length;
  return {
    completion: {
      values,
      ...(result.completion.total !== undefined ? { total: result.completion.total } : {}),
      hasMore: cut || result.completion.hasMore === true,
    },
  };
}
