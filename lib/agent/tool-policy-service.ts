/**
 * Tool policies for Settings: every tool of the user's workspace servers with its effective
 * policy, and validated changes (only for servers of the user's workspace).
 */
import { z } from "zod";
import type { Db } from "../../db/client";
import { clearToolPolicy, listToolPoliciesByUser, setToolPolicy } from "../../db/queries/tool-policies";
import type { McpPool, ServerDefinition } from "../mcp";
import { AppError } from "../errors";
import { redact } from "../redact";
import { TOOL_POLICIES, defaultPolicy, policyHints, policyKey, policyToolName, type ToolPolicy } from "./policy";

/** How the resource/prompt wrapper tools are named in Settings. */
const WRAPPER_TITLES = {
  list_resources: "List resources (built in)",
  read_resource: "Read a resource (built in)",
  list_prompts: "List prompts (built in)",
  get_prompt: "Get a prompt (built in)",
} as const;

/** Body of `PUT /api/settings/tool-policies`; `policy: null` restores the default. */
export const toolPolicyUpdateSchema = z.object({
  serverId: z.string().min(1).max(200),
  toolName: z.string().min(1).max(500),
  policy: z.enum(TOOL_POLICIES as [ToolPolicy, ...ToolPolicy[]]).nullable(),
});

/** One row of the Settings table. */
export interface ToolPolicyRow {
  serverId: string;
  serverName: string;
  toolName: string;
  title?: string;
  readOnlyHint: boolean;
  policy: ToolPolicy;
  isDefault: boolean;
}

/** Every server's tools with their policies; a server that cannot connect is reported, not hidden. */
export async function listToolPolicyRows(db: Db, pool: Pick<McpPool, "listTools">, userId: string, servers: ServerDefinition[]) {
  const stored = new Map(listToolPoliciesByUser(db, userId).map((p) => [policyKey(p.serverId, p.toolName), p.policy]));
  const results = await Promise.allSettled(servers.map((server) => pool.listTools(userId, server)));
  const rows: ToolPolicyRow[] = [];
  const errors: { serverId: string; serverName: string; message: string }[] = [];
  results.forEach((result, index) => {
    const server = servers[index];
    if (result.status === "rejected") {
      errors.push({
        serverId: server.id,
        serverName: server.name,
        message: redact(result.reason instanceof Error ? result.reason.message : String(result.reason)),
      });
      return;
    }
    for (const tool of result.value) {
      const toolName = policyToolName(tool);
      const hints = policyHints(tool);
      const chosen = stored.get(policyKey(server.id, toolName));
      rows.push({
        serverId: server.id,
        serverName: server.name,
        toolName,
        title: tool.kind === "tool" ? tool.title : WRAPPER_TITLES[tool.kind],
        readOnlyHint: hints?.readOnlyHint === true,
        policy: chosen ?? defaultPolicy(hints),
        isDefault: chosen === undefined,
      });
    }
  });
  return { tools: rows, errors };
}

/** Store or clear one policy; the server must belong to the user's workspace. */
export function updateToolPolicy(db: Db, userId: string, servers: ServerDefinition[], input: z.infer<typeof toolPolicyUpdateSchema>): void {
  if (!servers.some((s) => s.id === input.serverId)) throw new AppError("server.not_found", "No such server.");
  if (input.policy === null) clearToolPolicy(db, userId, input);
  else setToolPolicy(db, userId, { serverId: input.serverId, toolName: input.toolName, policy: input.policy });
}
