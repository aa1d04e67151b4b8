/**
 * Tool approval policy (human in the loop), as one pure decision: for a tool call, `allow` (run),
 * `ask` (approval card) or `never` (refused), with the reason shown to the user. Server
 * annotations are claims, never permissions: they only matter on a server a person marked trusted
 * (docs/tool-trust.md). Stored choices come from db/queries/tool-policies.ts.
 */
import type { RegisteredTool } from "../mcp/types";
import { TOOL_POLICIES, type ToolPolicy } from "../domain/tool-policy";

/** The policy type and values live in lib/domain so the database can store them without importing the agent. */
export { TOOL_POLICIES, type ToolPolicy };

/** What the user sees when a call is refused; the model receives the same text, so it can tell the user why. */
export const DENIED_BY_USER = "The tool call was denied by the user.";

/** What the model receives when the user's saved policy for the tool is "never". */
export const DENIED_BY_POLICY = "The tool call was denied by the user's policy for this tool (set to never).";

/** What the model receives when the workspace's policy for the tool is "never". */
export const DENIED_BY_WORKSPACE = "The tool call was denied by the workspace's policy for this tool (set to never).";

/** The outcome for one call. */
export type ApprovalDecision = { action: "allow" } | { action: "ask"; reason: string } | { action: "never"; reason: string };

/** Untrusted content the conversation has brought into the model's context, by server. */
export interface ContentSource {
  serverId: string;
  serverName: string;
}

/** Everything the decision looks at; all of it is computed on the server. */
export interface ApprovalInput {
  tool: Pick<RegisteredTool, "kind" | "annotations" | "serverId" | "serverName">;
  /** Whether a person marked the tool's server trusted (default false). */
  trusted: boolean;
  /** The user's own stored choice, if any. */
  userChoice?: ToolPolicy;
  /** The workspace's choice (set by its owners/admins), if any; members cannot loosen it. */
  workspaceChoice?: ToolPolicy;
  /** Servers whose content (tool results, resources, prompts, app context) the conversation's context holds. */
  contextSources: readonly ContentSource[];
  /** The lethal-trifecta check for the tool's server (default on; workspace admins may turn it off). */
  trifectaCheck: boolean;
}

const STRICTNESS: Record<ToolPolicy, number> = { allow: 0, ask: 1, deny: 2 };

/** The stricter of two policies (deny > ask > allow). */
export function stricterPolicy(a: ToolPolicy, b: ToolPolicy): ToolPolicy {
  return STRICTNESS[a] >= STRICTNESS[b] ? a : b;
}

/**
 * Whether the server claims the tool only reads: `readOnlyHint: true` without `destructiveHint: true`
 * (a tool claiming both is lying about one). The resource/prompt wrappers only list or read.
 */
export function claimsReadOnly(tool: Pick<RegisteredTool, "kind" | "annotations">): boolean {
  if (tool.kind !== "tool") return true;
  return tool.annotations?.readOnlyHint === true && tool.annotations.destructiveHint !== true;
}

/** The policy when nobody chose one: `allow` only for read-only-claimed tools of a trusted server. */
export function defaultPolicy(tool: Pick<RegisteredTool, "kind" | "annotations">, trusted: boolean): ToolPolicy {
  return trusted && claimsReadOnly(tool) ? "allow" : "ask";
}

/**
 * The policy in force: the workspace's choice is the default for members and a floor they cannot
 * go below; without one, the user's choice or the default.
 */
export function effectivePolicy(input: Pick<ApprovalInput, "tool" | "trusted" | "userChoice" | "workspaceChoice">): ToolPolicy {
  const own = input.userChoice ?? input.workspaceChoice ?? defaultPolicy(input.tool, input.trusted);
  return input.workspaceChoice ? stricterPolicy(own, input.workspaceChoice) : own;
}

/**
 * Whether a call could carry data out of the conversation: anything but a read-only-claimed tool of a trusted
 * server, an open-world tool, or any tool of another server than the content came from.
 */
export function couldSendOut(input: Pick<ApprovalInput, "tool" | "trusted" | "contextSources">): boolean {
  const { tool } = input;
  if (!(input.trusted && claimsReadOnly(tool))) return true;
  if (tool.kind === "tool" && tool.annotations?.openWorldHint === true) return true;
  return input.contextSources.some((source) => source.serverId !== tool.serverId);
}

function askReason(input: ApprovalInput, policy: ToolPolicy): string {
  if (input.userChoice === "ask") return "Your policy for this tool is Ask.";
  if (input.workspaceChoice === "ask" && policy === "ask") return "The workspace's policy for this tool is Ask.";
  if (!input.trusted) return `The server "${input.tool.serverName}" is not trusted: its tools ask until you allow them.`;
  const a = input.tool.annotations;
  if (a?.readOnlyHint === true && a.destructiveHint === true) return "The server marks this tool both read-only and destructive.";
  return "The server does not mark this tool read-only.";
}

/** The decision for one call (the pure core of the approval system; see the table test). */
export function decideApproval(input: ApprovalInput): ApprovalDecision {
  const policy = effectivePolicy(input);
  if (policy === "deny") {
    const byWorkspace = input.workspaceChoice === "deny" && input.userChoice !== "deny";
    return { action: "never", reason: byWorkspace ? DENIED_BY_WORKSPACE : DENIED_BY_POLICY };
  }
  if (input.trifectaCheck && input.contextSources.length > 0 && couldSendOut(input)) {
    const names = [...new Set(input.contextSources.map((s) => `"${s.serverName}"`))].join(", ");
    return { action: "ask", reason: `This call follows content from server ${names} in this conversation and could send data out.` };
  }
  if (policy === "allow") return { action: "allow" };
  return { action: "ask", reason: askReason(input, policy) };
}

/** The AI SDK approval status for a decision (see `toolApproval` in streamText). */
export function approvalStatus(
  decision: ApprovalDecision,
): { type: "not-applicable" } | { type: "denied"; reason: string } | { type: "user-approval"; reason: string } {
  // "allow" runs the call as if no approval existed: no approval metadata to render or persist.
  if (decision.action === "allow") return { type: "not-applicable" };
  if (decision.action === "never") return { type: "denied", reason: decision.reason };
  return { type: "user-approval", reason: decision.reason };
}

/** Key of a (server, raw tool) pair in policy maps. */
export function policyKey(serverId: string, toolName: string): string {
  return `${serverId}\u0000${toolName}`;
}

/**
 * The name a policy is stored under: the raw tool name, or `#list_resources` etc. for the
 * resource/prompt wrappers (docs/architecture.md#tools-the-model-sees) so they never share a policy with a server tool.
 */
export function policyToolName(tool: Pick<RegisteredTool, "kind" | "rawName">): string {
  return tool.kind === "tool" ? tool.rawName : `#${tool.kind}`;
}
