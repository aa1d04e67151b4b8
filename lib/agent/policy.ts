/**
 * Tool approval policy (human in the loop): per user and tool, `ask`, `allow` (always) or `deny`
 * (never). Pure functions; the stored choices come from db/queries/tool-policies.ts.
 */
import type { ToolAnnotations } from "@modelcontextprotocol/client";
import type { RegisteredTool } from "../mcp/types";

/** A user's decision for one tool. */
export type ToolPolicy = "ask" | "allow" | "deny";

/** Every policy value, for validation and pickers. */
export const TOOL_POLICIES: readonly ToolPolicy[] = ["ask", "allow", "deny"];

/** What the user sees when a call is refused; the model receives the same text (issue: deny path). */
export const DENIED_BY_USER = "The tool call was denied by the user.";

/** What the model receives when the user's saved policy for the tool is "never". */
export const DENIED_BY_POLICY = "The tool call was denied by the user's policy for this tool (set to never).";

/**
 * The policy when the user chose none: `allow` for tools the server hints are read-only, else `ask`.
 * The hint only picks a default the user can change; it is never a security decision (REFERENCE §8).
 */
export function defaultPolicy(annotations: ToolAnnotations | undefined): ToolPolicy {
  return annotations?.readOnlyHint === true ? "allow" : "ask";
}

/** The stored choice when there is one, else the default from the annotations. */
export function effectivePolicy(stored: ToolPolicy | undefined, annotations: ToolAnnotations | undefined): ToolPolicy {
  return stored ?? defaultPolicy(annotations);
}

/** The AI SDK approval status for a policy (see `toolApproval` in streamText). */
export function approvalStatus(
  policy: ToolPolicy,
): { type: "not-applicable" } | { type: "denied"; reason: string } | { type: "user-approval" } {
  // "allow" runs the call as if no approval existed: no approval metadata to render or persist.
  if (policy === "allow") return { type: "not-applicable" };
  if (policy === "deny") return { type: "denied", reason: DENIED_BY_POLICY };
  return { type: "user-approval" };
}

/** Key of a (server, raw tool) pair in policy maps. */
export function policyKey(serverId: string, toolName: string): string {
  return `${serverId}\u0000${toolName}`;
}

/**
 * The name a policy is stored under: the raw tool name, or `#list_resources` etc. for the
 * resource/prompt wrappers (REFERENCE §2) so they never share a policy with a server tool.
 */
export function policyToolName(tool: Pick<RegisteredTool, "kind" | "rawName">): string {
  return tool.kind === "tool" ? tool.rawName : `#${tool.kind}`;
}

/** The hints a policy default is based on: the server's for its tools; wrappers only list or read. */
export function policyHints(tool: Pick<RegisteredTool, "kind" | "annotations">): ToolAnnotations | undefined {
  return tool.kind === "tool" ? tool.annotations : { readOnlyHint: true };
}
