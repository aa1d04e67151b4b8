/**
 * What an MCP App asks the host to do (docs/mcp-apps.md#what-an-app-may-ask): tool calls go through
 * the agent's own gate (held tools, trust, the user's and the workspace's policies) and are audited;
 * links, messages and model context are checked, redacted and audited before the browser acts.
 */
import "server-only";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { z } from "zod";
import { getDb } from "../../db/client";
import { recordAudit } from "../../db/queries/audit";
import { HELD_TOOL_ERROR, ToolGate } from "../trust/tool-gate";
import { AppError } from "../errors";
import { appPool, workspaceServerDefinition } from "../runtime/engine";
import { redact } from "../redact";
import type { AppCaller } from "./app-resource";
import { recordRefusedCall } from "../usage/record";

/** Body of `POST /api/apps/call`: a tool of the app's own server, by its raw name. */
export const appCallSchema = z.object({
  serverId: z.string().min(1).max(100),
  name: z.string().min(1).max(200),
  arguments: z.record(z.string(), z.unknown()).default({}),
  /** The user answered this call's approval prompt with "Allow" in the host's own dialog. */
  approved: z.boolean().default(false),
  /** The user answered "Deny": recorded, never run. */
  declined: z.boolean().default(false),
});

/** The outcome: ran, needs the user's approval first, or refused by policy. */
export type AppCallOutcome =
  | { status: "done"; result: CallToolResult }
  | { status: "approval_required"; reason: string }
  | { status: "denied"; reason: string };

/** Run (or hold for approval, or refuse) one tool call an app asked for. */
export async function callAppTool(caller: AppCaller, body: z.infer<typeof appCallSchema>, signal?: AbortSignal): Promise<AppCallOutcome> {
  const db = getDb();
  const pool = appPool();
  const server = await workspaceServerDefinition(db, caller, body.serverId);
  const gate = await ToolGate.open({ db, pool, user: caller, servers: [server] });
  await gate.refresh();
  const tool = (await pool.toolset(caller.id, [server])).find((t) => t.kind === "tool" && t.rawName === body.name);
  if (!tool) throw new AppError("app.tool_not_found", "The app asked for a tool its server does not offer.");
  const audit = async (decision: string, extra: Record<string, unknown> = {}) => {
    if (decision === "refused")
      await recordRefusedCall(db, { userId: caller.id, workspaceId: caller.workspaceId, server, name: tool.rawName });
    await recordAudit(db, {
      actorId: caller.id,
      workspaceId: caller.workspaceId,
      action: "app.tool_call",
      target: `server:${server.id}`,
      detail: { tool: tool.rawName, decision, ...extra },
    });
  };
  // A tool meant for the model only is not the app's to call (the extension's `visibility`).
  if (tool.ui?.visibility && !tool.ui.visibility.includes("app")) {
    await audit("refused", { reason: "model-only tool" });
    return { status: "denied", reason: "This tool is not available to apps." };
  }
  if (gate.isHeld(tool.name)) {
    await audit("refused", { reason: "held" });
    return { status: "denied", reason: HELD_TOOL_ERROR };
  }
  if (body.declined) {
    await audit("denied by user");
    return { status: "denied", reason: "You denied this call." };
  }
  const approval = gate.approval(tool.name, []);
  if (approval.type === "denied") {
    await audit("refused", { reason: approval.reason });
    return { status: "denied", reason: approval.reason };
  }
  if (approval.type === "user-approval" && !body.approved) return { status: "approval_required", reason: approval.reason };
  const outcome = await pool.callRegistered(caller.id, [server], tool.name, body.arguments, { signal });
  await audit(approval.type === "user-approval" ? "approved" : "allowed", { isError: outcome.isError });
  return { status: "done", result: outcome.content };
}

/** Body of `POST /api/apps/requests`: a link to open, a message to send, or context for the model. */
export const appRequestSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("open_link"), serverId: z.string().min(1).max(100), url: z.string().max(4000), confirmed: z.boolean() }),
  z.object({ kind: z.literal("message"), serverId: z.string().min(1).max(100), text: z.string().max(20_000), confirmed: z.boolean() }),
]);

/** Check and audit what the app asked and what the user answered; returns what the browser may use. */
export async function recordAppRequest(
  caller: AppCaller,
  body: z.infer<typeof appRequestSchema>,
): Promise<{ url?: string; text?: string }> {
  const db = getDb();
  const server = await workspaceServerDefinition(db, caller, body.serverId);
  const audit = async (detail: Record<string, unknown>) =>
    await recordAudit(db, {
      actorId: caller.id,
      workspaceId: caller.workspaceId,
      action: `app.${body.kind}`,
      target: `server:${server.id}`,
      detail,
    });
  if (body.kind === "open_link") {
    const url = safeLink(body.url);
    if (!url) {
      await audit({ decision: "refused", reason: "not an http(s) URL" });
      throw new AppError("request.invalid", "Apps may open only http and https links.", "url");
    }
    await audit({ decision: body.confirmed ? "opened" : "declined", host: new URL(url).host });
    return body.confirmed ? { url } : {};
  }
  await audit({ decision: body.confirmed ? "sent" : "declined", chars: body.text.length });
  return body.confirmed ? { text: redact(body.text) } : {};
}

/** The URL as the browser should open it, or null unless it is plain http(s) without credentials. */
export function safeLink(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  if (url.username || url.password) return null;
  return url.toString();
}
