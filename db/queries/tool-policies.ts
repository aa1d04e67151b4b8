/** Per-user tool approval policies, keyed by (server, raw tool name); always scoped by user. */
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../client";
import { bumpGeneration } from "../generation";
import { toolPolicies, workspaceToolPolicies } from "../schema";
import type { ToolPolicy } from "../../lib/domain/tool-policy";
import { gated } from "../transaction";
import { all, exec } from "../exec";

/** One stored choice. */
export interface ToolPolicyRecord {
  serverId: string;
  toolName: string;
  policy: ToolPolicy;
}

/** Every choice the user made. */
export async function listToolPoliciesByUser(db: Db, userId: string): Promise<ToolPolicyRecord[]> {
  return gated(db, async () => {
    return await all(
      db
        .select({ serverId: toolPolicies.serverId, toolName: toolPolicies.toolName, policy: toolPolicies.policy })
        .from(toolPolicies)
        .where(eq(toolPolicies.userId, userId)),
    );
  });
}

/** Store a choice (the caller has checked the server belongs to the user's workspace). */
export async function setToolPolicy(db: Db, userId: string, record: ToolPolicyRecord): Promise<void> {
  return gated(db, async () => {
    await exec(
      db
        .insert(toolPolicies)
        .values({ userId, ...record, updatedAt: new Date() })
        .onConflictDoUpdate({
          target: [toolPolicies.userId, toolPolicies.serverId, toolPolicies.toolName],
          set: { policy: record.policy, updatedAt: new Date() },
        }),
    );
    bumpGeneration();
  });
}

/** Forget a choice so the default applies again. */
export async function clearToolPolicy(db: Db, userId: string, ref: { serverId: string; toolName: string }): Promise<void> {
  return gated(db, async () => {
    await exec(
      db
        .delete(toolPolicies)
        .where(and(eq(toolPolicies.userId, userId), eq(toolPolicies.serverId, ref.serverId), eq(toolPolicies.toolName, ref.toolName))),
    );
    bumpGeneration();
  });
}

/** Every workspace-wide choice for the given servers (the caller passes the workspace's servers). */
export async function listWorkspaceToolPolicies(db: Db, serverIds: string[]): Promise<ToolPolicyRecord[]> {
  return gated(db, async () => {
    if (serverIds.length === 0) return [];
    return await all(
      db
        .select({
          serverId: workspaceToolPolicies.serverId,
          toolName: workspaceToolPolicies.toolName,
          policy: workspaceToolPolicies.policy,
        })
        .from(workspaceToolPolicies)
        .where(inArray(workspaceToolPolicies.serverId, serverIds)),
    );
  });
}

/** Store a workspace-wide choice (the caller has checked the actor may manage the workspace's policies). */
export async function setWorkspaceToolPolicy(db: Db, updatedBy: string, record: ToolPolicyRecord): Promise<void> {
  return gated(db, async () => {
    await exec(
      db
        .insert(workspaceToolPolicies)
        .values({ ...record, updatedBy, updatedAt: new Date() })
        .onConflictDoUpdate({
          target: [workspaceToolPolicies.serverId, workspaceToolPolicies.toolName],
          set: { policy: record.policy, updatedBy, updatedAt: new Date() },
        }),
    );
    bumpGeneration();
  });
}

/** Forget a workspace-wide choice. */
export async function clearWorkspaceToolPolicy(db: Db, ref: { serverId: string; toolName: string }): Promise<void> {
  return gated(db, async () => {
    await exec(
      db
        .delete(workspaceToolPolicies)
        .where(and(eq(workspaceToolPolicies.serverId, ref.serverId), eq(workspaceToolPolicies.toolName, ref.toolName))),
    );
    bumpGeneration();
  });
}
