/**
 * A person calling a tool by hand (the inspector, `POST /api/servers/:id/tools/call`) passes the
 * same gate as the agent: a held tool (new or changed definition awaiting review) is refused, a
 * tool set to "never" is refused, and every hand call is audited with the policy it ran under.
 * "Ask" means the person confirms in the inspector before the request is sent
 * (docs/workbench.md#calling-tools-by-hand).
 */
import type { Db } from "../../db/client";
import { recordAudit } from "../../db/queries/audit";
import { AppError } from "../errors";
import type { McpPool, ServerDefinition, ToolCallOutcome } from "../mcp";
import type { TrustActor } from "./permissions";
import type { ContentSource } from "./policy";
import { listToolsWithHeld } from "./trust-service";
import { ToolGate } from "./tool-gate";

/** The gate's verdict for one raw tool: `allow`, or `ask` with the reason the person sees. */
export type HandCallPolicy = { action: "allow" } | { action: "ask"; reason: string };

/**
 * Check a hand call of `rawName` before it runs: lists the tools now (connecting if needed, so a
 * held definition is known), throws `tool.held` / `tool.denied`, else returns the policy.
 * `sources`: the servers whose content the caller's context already holds (a gateway session's,
 * for the lethal-trifecta rule); none for a person at the inspector.
 * A name the server does not list is left to the engine, which answers it as an error result.
 */
export async function gateHandCall(
  db: Db,
  pool: Pick<McpPool, "session" | "toolset" | "listingVersion">,
  caller: TrustActor,
  server: ServerDefinition,
  rawName: string,
  sources: readonly ContentSource[] = [],
): Promise<HandCallPolicy> {
  // Connects if needed and throws when the server cannot be reached, before anything is decided;
  // the gate decides on this very listing (the tools are listed once).
  const listed = await pool.session(caller.id, server).listTools();
  const gate = await ToolGate.open({ db, pool, user: caller, servers: [server] });
  await gate.refresh(listed);
  const tool = gate.serverTool(server.id, rawName);
  if (!tool) return { action: "allow" };
  const held = gate.heldState(tool.name);
  if (held) {
    throw new AppError(
      "tool.held",
      `The tool "${rawName}" is ${held === "new" ? "new" : "changed"} and waits for a workspace owner or admin to review it on the Servers page; it cannot be called until then.`,
    );
  }
  const approval = gate.approval(tool.name, sources);
  if (approval.type === "denied") throw new AppError("tool.denied", approval.reason);
  return approval.type === "user-approval" ? { action: "ask", reason: approval.reason } : { action: "allow" };
}

/** Every listed tool with what a hand call of it would meet: held, never, ask (with the reason) or allow. */
export async function handCallPolicies(
  db: Db,
  pool: Pick<McpPool, "session" | "toolset" | "listingVersion">,
  caller: TrustActor,
  server: ServerDefinition,
) {
  const tools = await listToolsWithHeld(db, pool, caller, server);
  const gate = await ToolGate.open({ db, pool, user: caller, servers: [server] });
  await gate.refresh();
  return tools.map((tool) => {
    if (tool.held) return { ...tool, policy: { action: "held" as const, reason: `${tool.held} definition waiting for review` } };
    const approval = gate.approval(tool.name, []);
    const policy =
      approval.type === "denied"
        ? { action: "never" as const, reason: approval.reason }
        : approval.type === "user-approval"
          ? { action: "ask" as const, reason: approval.reason }
          : { action: "allow" as const, reason: "" };
    return { ...tool, policy };
  });
}

/**
 * Audit one finished hand call (never the arguments or the result: they may hold secrets). `origin`
 * names a caller other than the inspector: the MCP gateway, with the client's self-declared name.
 */
export async function auditHandCall(
  db: Db,
  caller: TrustActor,
  server: ServerDefinition,
  rawName: string,
  policy: HandCallPolicy,
  outcome: ToolCallOutcome,
  origin?: { via: "gateway"; client: string | null },
): Promise<void> {
  await recordAudit(db, {
    actorId: caller.id,
    workspaceId: caller.workspaceId,
    action: "tool.called_by_hand",
    target: `server:${server.id}`,
    detail: {
      tool: rawName,
      policy: policy.action,
      isError: outcome.isError,
      durationMs: Math.round(outcome.durationMs),
      ...(origin ? { via: origin.via, client: origin.client } : {}),
    },
  });
}
