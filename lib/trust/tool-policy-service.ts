/**
 * Tool policies for Settings: every tool of the user's workspace servers with the user's own
 * choice, the workspace's choice (set by owners/admins; members cannot loosen it), the effective
 * policy, the server's trust and the tool's review state; and validated, audited changes.
 */
import { z } from "zod";
import type { Db } from "../../db/client";
import { recordAudit } from "../../db/queries/audit";
import { getServerTrust } from "../../db/queries/server-trust";
import {
  clearToolPolicy,
  clearWorkspaceToolPolicy,
  listToolPoliciesByUser,
  listWorkspaceToolPolicies,
  setToolPolicy,
  setWorkspaceToolPolicy,
} from "../../db/queries/tool-policies";
import { isEngineError, type McpPool, type ServerDefinition } from "../mcp";
import { AppError } from "../errors";
import { redact } from "../redact";
import { canManageWorkspacePolicies, type TrustActor } from "./permissions";
import { syncToolPins, type HeldState } from "./pins";
import { displayTool } from "./untrusted-text";
import { TOOL_POLICIES, claimsReadOnly, defaultPolicy, effectivePolicy, policyKey, policyToolName, type ToolPolicy } from "./policy";

/** How the resource/prompt wrapper tools are named in Settings. */
const WRAPPER_TITLES = {
  list_resources: "List resources (built in)",
  read_resource: "Read a resource (built in)",
  list_prompts: "List prompts (built in)",
  get_prompt: "Get a prompt (built in)",
} as const;

/** Body of `PUT /api/settings/tool-policies`; `policy: null` restores the default; `scope` defaults to `user`. */
export const toolPolicyUpdateSchema = z.object({
  serverId: z.string().min(1).max(200),
  toolName: z.string().min(1).max(500),
  policy: z.enum(TOOL_POLICIES as [ToolPolicy, ...ToolPolicy[]]).nullable(),
  scope: z.enum(["user", "workspace"]).default("user"),
});

/** One row of the Settings table. */
export interface ToolPolicyRow {
  serverId: string;
  serverName: string;
  toolName: string;
  title?: string;
  readOnlyHint: boolean;
  trusted: boolean;
  held: HeldState | null;
  /** What applies now. */
  policy: ToolPolicy;
  /** The policy with no choice stored at all. */
  defaultPolicy: ToolPolicy;
  userPolicy: ToolPolicy | null;
  workspacePolicy: ToolPolicy | null;
  isDefault: boolean;
}

/**
 * Every server's tools with their policies; a server that cannot connect is reported, not hidden,
 * and one still connecting after the page's bound (`SWITCHBOARD_MCP_TURN_WAIT_SECONDS`) is
 * reported as `connecting`.
 */
export async function listToolPolicyRows(db: Db, pool: Pick<McpPool, "session">, actor: TrustActor, servers: ServerDefinition[]) {
  const own = new Map((await listToolPoliciesByUser(db, actor.id)).map((p) => [policyKey(p.serverId, p.toolName), p.policy]));
  const workspace = new Map(
    (
      await listWorkspaceToolPolicies(
        db,
        servers.map((s) => s.id),
      )
    ).map((p) => [policyKey(p.serverId, p.toolName), p.policy]),
  );
  const results = await Promise.allSettled(servers.map((server) => pool.session(actor.id, server).listToolsWithin()));
  const rows: ToolPolicyRow[] = [];
  const errors: { serverId: string; serverName: string; message: string; connecting: boolean }[] = [];
  // In order, one after another (a forEach would not wait): each server's pins sync is a transaction.
  for (const [index, result] of results.entries()) {
    const server = servers[index];
    if (result.status === "rejected") {
      const message = result.reason instanceof Error ? result.reason.message : String(result.reason);
      const connecting = isEngineError(result.reason, "not_connected");
      errors.push({ serverId: server.id, serverName: server.name, message: redact(message), connecting });
      continue;
    }
    const trusted = (await getServerTrust(db, server.id)).trusted;
    const held = await syncToolPins(db, server.id, result.value, { userId: actor.id, workspaceId: actor.workspaceId });
    for (const tool of result.value) {
      const toolName = policyToolName(tool);
      const key = policyKey(server.id, toolName);
      const userChoice = own.get(key);
      const workspaceChoice = workspace.get(key);
      rows.push({
        serverId: server.id,
        serverName: server.name,
        toolName,
        title: tool.kind === "tool" ? displayTool(tool).title : WRAPPER_TITLES[tool.kind],
        readOnlyHint: claimsReadOnly(tool),
        trusted,
        held: tool.kind === "tool" ? (held.get(tool.rawName) ?? null) : null,
        policy: effectivePolicy({ tool, trusted, userChoice, workspaceChoice }),
        defaultPolicy: defaultPolicy(tool, trusted),
        userPolicy: userChoice ?? null,
        workspacePolicy: workspaceChoice ?? null,
        isDefault: userChoice === undefined,
      });
    }
  }
  return { tools: rows, errors, canManageWorkspace: await canManageWorkspacePolicies(db, actor) };
}

/** Store or clear one policy (own, or the workspace's for owners/admins); audited. */
export async function updateToolPolicy(
  db: Db,
  actor: TrustActor,
  servers: ServerDefinition[],
  input: z.input<typeof toolPolicyUpdateSchema>,
): Promise<void> {
  if (!servers.some((s) => s.id === input.serverId)) throw new AppError("server.not_found", "No such server.");
  const ref = { serverId: input.serverId, toolName: input.toolName };
  const scope = input.scope ?? "user";
  if (scope === "workspace") {
    if (!(await canManageWorkspacePolicies(db, actor)))
      throw new AppError("auth.forbidden", "Only workspace owners and admins can set workspace policies.");
    if (input.policy === null) await clearWorkspaceToolPolicy(db, ref);
    else await setWorkspaceToolPolicy(db, actor.id, { ...ref, policy: input.policy });
  } else if (input.policy === null) await clearToolPolicy(db, actor.id, ref);
  else await setToolPolicy(db, actor.id, { ...ref, policy: input.policy });
  await recordAudit(db, {
    actorId: actor.id,
    workspaceId: actor.workspaceId,
    action: "tool.policy_changed",
    target: `server:${input.serverId}`,
    detail: { tool: input.toolName, scope, policy: input.policy },
  });
}
