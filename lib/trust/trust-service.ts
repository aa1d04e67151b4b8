/**
 * Use cases behind the trust routes: a server's trust settings and held tools, marking it trusted
 * or switching its lethal-trifecta check (audited), approving a held tool's new definition
 * (audited), and the tool list with each tool's `held` state.
 */
import { displayTool } from "./untrusted-text";
import { z } from "zod";
import type { Db } from "../../db/client";
import { recordAudit } from "../../db/queries/audit";
import { getServerTrust, updateServerTrust } from "../../db/queries/server-trust";
import type { ServerRecord } from "../../db/queries/servers";
import { getServer } from "../servers/lookup";
import { AppError } from "../errors";
import type { McpPool, RegisteredTool, ServerDefinition } from "../mcp";
import { redact } from "../redact";
import { canManageServer, type TrustActor } from "./permissions";
import { approveHeldTool, listHeldTools, syncToolPins, type HeldState } from "./pins";

/** Body of `PUT /api/servers/:id/trust`. */
export const trustUpdateSchema = z
  .object({ trusted: z.boolean().optional(), trifectaCheck: z.boolean().optional() })
  .strict()
  .refine((b) => b.trusted !== undefined || b.trifectaCheck !== undefined, { message: "Send trusted or trifectaCheck." });

/** Body of `POST /api/servers/:id/tools/review`: the raw tool name and the definition hash reviewed. */
export const toolReviewSchema = z.object({ toolName: z.string().min(1).max(500), hash: z.string().regex(/^[0-9a-f]{64}$/) }).strict();

async function assertCanManage(db: Db, actor: TrustActor, record: ServerRecord): Promise<void> {
  if (!(await canManageServer(db, actor))) throw new AppError("auth.forbidden", "Only the workspace's owners and admins can do this.");
}

/** A registered tool with its review state. */
export type ToolWithHeld = RegisteredTool & { held: HeldState | null };

/**
 * The server's tools, listed now, each with `held: null | "new" | "changed"` (pins synced first).
 * A page waits on this: a server still connecting after the bound fails with `not_connected`.
 */
export async function listToolsWithHeld(
  db: Db,
  pool: Pick<McpPool, "session">,
  actor: TrustActor,
  server: ServerDefinition,
): Promise<ToolWithHeld[]> {
  const tools = await pool.session(actor.id, server).listToolsWithin();
  const held = await syncToolPins(db, server.id, tools, { userId: actor.id, workspaceId: actor.workspaceId });
  return tools.map((tool) => ({ ...displayTool(tool), held: tool.kind === "tool" ? (held.get(tool.rawName) ?? null) : null }));
}

/**
 * Trust settings, whether the caller may change them, and the held tools with both definitions.
 * With `refresh` the tools are listed first (connecting if needed); when that fails the stored
 * state is returned with the reason (never an empty list that hides the failure).
 */
export async function serverTrustView(
  db: Db,
  pool: Pick<McpPool, "session">,
  actor: TrustActor,
  server: ServerDefinition,
  refresh: boolean,
) {
  await getServer(db, actor, server.id); // 404 for a server outside the caller's workspace
  let listError: string | null = null;
  if (refresh) {
    try {
      await listToolsWithHeld(db, pool, actor, server);
    } catch (error) {
      listError = redact(error instanceof Error ? error.message : String(error));
    }
  }
  const trust = await getServerTrust(db, server.id);
  return {
    trusted: trust.trusted,
    trifectaCheck: trust.trifectaCheck,
    canManage: await canManageServer(db, actor),
    held: await listHeldTools(db, server.id),
    listError,
  };
}

/** Change the trusted flag and/or the trifecta check; each change is audited with old and new value. */
export async function changeServerTrust(db: Db, actor: TrustActor, serverId: string, change: z.infer<typeof trustUpdateSchema>) {
  const record = await getServer(db, actor, serverId);
  await assertCanManage(db, actor, record);
  const before = await getServerTrust(db, serverId);
  const after = await updateServerTrust(db, serverId, change, actor.id);
  const audit = async (action: string, from: boolean, to: boolean) =>
    await recordAudit(db, {
      actorId: actor.id,
      workspaceId: actor.workspaceId,
      action,
      target: `server:${serverId}`,
      detail: { name: record.name, from, to },
    });
  if (before.trusted !== after.trusted) await audit("server.trust_changed", before.trusted, after.trusted);
  if (before.trifectaCheck !== after.trifectaCheck) await audit("server.trifecta_check_changed", before.trifectaCheck, after.trifectaCheck);
  return { trusted: after.trusted, trifectaCheck: after.trifectaCheck };
}

/** Approve the reviewed definition of a held tool (refused when it changed again since). */
export async function reviewHeldTool(db: Db, actor: TrustActor, serverId: string, body: z.infer<typeof toolReviewSchema>): Promise<void> {
  const record = await getServer(db, actor, serverId);
  await assertCanManage(db, actor, record);
  await approveHeldTool(db, serverId, body.toolName, body.hash, { userId: actor.id, workspaceId: actor.workspaceId });
}

/** Held tools across the workspace's servers, from the stored pins (no connection): for the chat status. */
export async function workspaceHeldTools(db: Db, servers: ServerDefinition[]) {
  return (
    await Promise.all(
      servers.map(async (server) =>
        (
          await listHeldTools(db, server.id)
        ).map((t) => ({ serverId: server.id, serverName: server.name, toolName: t.toolName, held: t.held })),
      ),
    )
  ).flat();
}
